import type { DeviceProperty } from '@ess/contract/device';
import { Badge, Card, Col, Descriptions, Row, Statistic, Tag } from 'antd';
import { useT } from '../../platform/i18n/useT.ts';
import { formatValue } from '../../components/format.ts';

const isCell = (id: string) => /^cell(Voltage|Temperature)\d+$/.test(id);

/** The shown text of a labelled property (the server's enumeration label wins). */
export function propertyText(p: DeviceProperty, t: (s: string, ...a: unknown[]) => string) {
  if (p.valueLabel) return { text: t(p.valueLabel), ...(p.colour ? { colour: p.colour } : {}) };
  return formatValue({ dataType: p.dataType as 'float', unit: p.unit }, p.value, t);
}

/** The type's key figures, large, at the top of the device page. */
export function KeyFigures({ properties, keys }: { properties: readonly DeviceProperty[]; keys: readonly string[] }) {
  const t = useT();
  const byId = new Map(properties.map((p) => [p.identifier, p]));
  const shown = keys.map((k) => byId.get(k)).filter((p): p is DeviceProperty => p !== undefined);
  if (!shown.length) return null;
  return (
    <Card>
      <Row gutter={[16, 16]}>
        {shown.map((p) => {
          const v = propertyText(p, t);
          const numeric = typeof p.value === 'number' && !p.valueLabel && p.dataType !== 'bool';
          return (
            <Col key={p.identifier} xs={12} md={8} lg={6} xl={3} data-testid={`key-${p.identifier}`}>
              <Statistic
                title={t(p.name)}
                value={numeric ? v.text.replace(` ${p.unit}`, '') : v.text}
                suffix={numeric ? p.unit : undefined}
                valueStyle={{ fontSize: 20 }}
                valueRender={(node) => (v.colour ? <Badge color={v.colour} text={<span style={{ fontSize: 20 }}>{v.text}</span>} /> : node)}
              />
            </Col>
          );
        })}
      </Row>
    </Card>
  );
}

/** Every latest value of the device by property, with units (cells are on the heat map). */
export function PropertyGrid({ properties }: { properties: readonly DeviceProperty[] }) {
  const t = useT();
  const shown = properties.filter((p) => !isCell(p.identifier));
  return (
    <Card title={t('实时数据')}>
      <Descriptions size="small" bordered column={{ xs: 1, sm: 2, lg: 3, xxl: 4 }} data-testid="property-grid">
        {shown.map((p) => {
          const v = propertyText(p, t);
          return (
            <Descriptions.Item key={p.identifier} label={t(p.name)}>
              <span data-testid={`prop-${p.identifier}`}>{v.colour ? <Badge color={v.colour} text={v.text} /> : v.text}</span>
              {p.writable && (
                <Tag style={{ marginInlineStart: 8 }} bordered={false}>
                  {t('可写')}
                </Tag>
              )}
            </Descriptions.Item>
          );
        })}
      </Descriptions>
    </Card>
  );
}
