import { DeleteOutlined, SaveOutlined, UploadOutlined } from '@ant-design/icons';
import { skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Col, Empty, Form, Popconfirm, Row, Select, Space, Table, Typography, Upload } from 'antd';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { deviceEndpoints } from '@ess/contract/device';
import { diagramEndpoints, type DiagramBinding, type DiagramRecord } from '@ess/contract/site';
import { formatDateTime } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { call } from '../../platform/request.ts';
import { applyBindings, cleanSvg, elementIdAt, formatValue, propertiesOf, propertyOf } from './circuit.model.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { siteKeys } from './site.keys.ts';

/** How often the bound values are refreshed. */
export const LIVE_REFRESH_MS = 5000;

const diagramKey = (siteId: number | null) => ['configure', 'diagram', siteId] as const;

function DiagramView({ svg, onPick, apply, selected }: { svg: string; onPick: (id: string) => void; apply: (root: Element) => void; selected: string | null }) {
  const ref = useRef<HTMLDivElement>(null);
  const clean = useMemo(() => cleanSvg(svg), [svg]);
  useLayoutEffect(() => {
    if (ref.current) ref.current.innerHTML = clean;
  }, [clean]);
  useEffect(() => {
    if (ref.current) apply(ref.current);
  });
  useEffect(() => {
    const root = ref.current;
    if (!root) return;
    root.querySelectorAll('.ess-selected').forEach((e) => e.classList.remove('ess-selected'));
    if (selected) root.querySelector(`[id="${selected.replace(/["\\]/g, '\\$&')}"]`)?.classList.add('ess-selected');
  }, [selected, clean]);
  return (
    <div
      ref={ref}
      data-testid="diagram"
      className="ess-diagram"
      style={{ width: '100%', overflow: 'auto', minHeight: 320, background: '#fff', border: '1px solid rgba(0,0,0,0.06)', borderRadius: 6, padding: 8 }}
      onClick={(e) => {
        if (!ref.current) return;
        const id = elementIdAt(e.target, ref.current);
        if (id) onPick(id);
      }}
    />
  );
}

/**
 * /config/circuit: a station's distribution diagram. Upload an SVG (sanitised by the server),
 * bind SVG elements (by id) to a device property, and watch the latest values in the elements,
 * refreshed every few seconds. Bindings are kept in the diagram record.
 */
export function CircuitPage() {
  const t = useT();
  const client = useQueryClient();
  const { message } = App.useApp();
  const [siteId, setSiteId] = useState<number | null>(null);
  const [draft, setDraft] = useState<DiagramBinding[] | null>(null);
  const [elementId, setElementId] = useState<string | null>(null);
  const [deviceId, setDeviceId] = useState<number | null>(null);
  const [identifier, setIdentifier] = useState<string | null>(null);

  const diagram = useQuery({
    queryKey: diagramKey(siteId),
    queryFn: siteId === null ? skipToken : () => call(diagramEndpoints.load, { siteId }),
  });
  const devicesQuery = useQuery({
    queryKey: siteKeys.diagramDevices(siteId),
    queryFn: siteId === null ? skipToken : () => call(deviceEndpoints.list, { siteId }, { loading: false }),
  });
  const devices = useMemo(() => new Map((devicesQuery.data ?? []).map((d) => [d.id, d])), [devicesQuery.data]);
  const bindings = useMemo(() => draft ?? diagram.data?.bindings ?? [], [draft, diagram.data]);
  const dirty = draft !== null;
  const deviceIds = useMemo(() => [...new Set(bindings.map((b) => b.deviceId))].sort((a, b) => a - b), [bindings]);
  const identifiers = useMemo(() => [...new Set(bindings.map((b) => b.identifier))].sort(), [bindings]);
  const latestQuery = useQuery({
    queryKey: siteKeys.diagramLatest(siteId, deviceIds, identifiers),
    queryFn:
      siteId === null || deviceIds.length === 0
        ? skipToken
        : () => call(deviceEndpoints.latestList, { siteId, deviceIds, identifiers }, { loading: false, noMessage: true }),
    refetchInterval: LIVE_REFRESH_MS,
  });
  const latest = useMemo(() => new Map((latestQuery.data ?? []).map((d) => [d.id, d])), [latestQuery.data]);

  const reset = useCallback(() => {
    setDraft(null);
    setElementId(null);
    setDeviceId(null);
    setIdentifier(null);
  }, []);
  const onSite = useCallback((id: number) => {
    setSiteId(id);
    reset();
  }, [reset]);

  const afterSave = async (r: DiagramRecord) => {
    client.setQueryData(diagramKey(siteId), r);
    reset();
    await client.invalidateQueries({ queryKey: siteKeys.callback.all });
  };
  /** Sends the upload form for the chosen station (the buttons that send it are off until one is chosen). */
  const sendDiagram = (fields: { bindings?: string; file?: File }) =>
    siteId === null ? Promise.reject(new Error('no station chosen')) : call(diagramEndpoints.upload, { siteId: String(siteId), ...fields });
  const upload = useMutation({
    mutationFn: (file: File) => sendDiagram({ ...(draft ? { bindings: JSON.stringify(draft) } : {}), file }),
    onSuccess: async (r) => {
      void message.success(t('上传成功'));
      await afterSave(r);
    },
  });
  const saveBindings = useMutation({
    mutationFn: () => sendDiagram({ bindings: JSON.stringify(bindings) }),
    onSuccess: async (r) => {
      void message.success(t('保存成功'));
      await afterSave(r);
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => call(diagramEndpoints.delete, { id }),
    onSuccess: async () => {
      void message.success(t('删除成功'));
      reset();
      await client.invalidateQueries({ queryKey: diagramKey(siteId) });
    },
  });

  const apply = useCallback((root: Element) => applyBindings(root, bindings, devices, latest, t), [bindings, devices, latest, t]);
  const pickDevice = devices.get(deviceId ?? -1);
  const addBinding = () => {
    if (!elementId || deviceId === null || !identifier) return;
    setDraft([...bindings.filter((b) => b.elementId !== elementId), { elementId, deviceId, identifier }]);
    setIdentifier(null);
  };

  const d = diagram.data;
  return (
    <Card
      title={t('配电图设置')}
      extra={
        <Space wrap>
          <Typography.Text>{t('站点')}</Typography.Text>
          <StationPicker autoSelectFirst value={siteId} onChange={onSite} id="circuit-site" />
          <Upload
            accept=".svg,image/svg+xml"
            showUploadList={false}
            beforeUpload={(file) => {
              upload.mutate(file);
              return false;
            }}
            disabled={siteId === null}
          >
            <Button icon={<UploadOutlined />} loading={upload.isPending} disabled={siteId === null}>
              {t(d ? '替换配电图' : '上传配电图')}
            </Button>
          </Upload>
          {d && (
            <Popconfirm title={t('确定删除该站点的配电图吗？')} okText={t('删除')} cancelText={t('取消')} onConfirm={() => remove.mutate(d.id)}>
              <Button danger icon={<DeleteOutlined />}>
                {t('删除')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      }
    >
      {!d ? (
        <Empty description={t(diagram.isFetching ? '加载中...' : '该站点尚未上传配电图（SVG）')} />
      ) : (
        <Row gutter={16}>
          <Col xs={24} xl={15}>
            <Typography.Paragraph type="secondary">
              {t('文件：$1，更新于 $2。点击图中带ID的元素可绑定设备属性，数值每 $3 秒刷新。', d.fileName, formatDateTime(d.updatedAt), LIVE_REFRESH_MS / 1000)}
            </Typography.Paragraph>
            <DiagramView svg={d.svg} onPick={setElementId} apply={apply} selected={elementId} />
          </Col>
          <Col xs={24} xl={9}>
            <Form layout="vertical">
              <Form.Item label={t('图元ID')} htmlFor="circuit-element">
                <Select id="circuit-element" showSearch value={elementId ?? undefined} onChange={setElementId} placeholder={t('点击图元或选择')} options={d.elementIds.map((id) => ({ value: id, label: id }))} />
              </Form.Item>
              <Form.Item label={t('设备')} htmlFor="circuit-device">
                <Select
                  id="circuit-device"
                  showSearch
                  optionFilterProp="label"
                  value={deviceId ?? undefined}
                  loading={devicesQuery.isFetching}
                  onChange={(v: number) => {
                    setDeviceId(v);
                    setIdentifier(null);
                  }}
                  placeholder={t('选择设备')}
                  options={(devicesQuery.data ?? []).map((x) => ({ value: x.id, label: `${x.name} (${x.code})` }))}
                />
              </Form.Item>
              <Form.Item label={t('属性')} htmlFor="circuit-property">
                <Select
                  id="circuit-property"
                  showSearch
                  optionFilterProp="label"
                  value={identifier ?? undefined}
                  onChange={setIdentifier}
                  placeholder={t('选择属性')}
                  options={propertiesOf(pickDevice?.type).map((p) => ({ value: p.identifier, label: `${t(p.label)} (${p.identifier})` }))}
                />
              </Form.Item>
              <Space>
                <Button onClick={addBinding} disabled={!elementId || deviceId === null || !identifier}>
                  {t('绑定')}
                </Button>
                <Button type="primary" icon={<SaveOutlined />} disabled={!dirty} loading={saveBindings.isPending} onClick={() => saveBindings.mutate()}>
                  {t('保存绑定')}
                </Button>
                {dirty && <Button onClick={reset}>{t('撤销修改')}</Button>}
              </Space>
            </Form>
            <Table<DiagramBinding>
              style={{ marginTop: 16 }}
              size="small"
              rowKey="elementId"
              pagination={false}
              dataSource={bindings}
              locale={{ emptyText: t('暂无绑定') }}
              columns={[
                { key: 'elementId', title: t('图元ID'), render: (_, b) => <Typography.Text code style={{ whiteSpace: 'nowrap' }}>{b.elementId}</Typography.Text> },
                { key: 'device', title: t('设备'), render: (_, b) => devices.get(b.deviceId)?.name ?? `#${b.deviceId}` },
                {
                  key: 'identifier', title: t('属性'),
                  render: (_, b) => {
                    const p = propertyOf(devices.get(b.deviceId)?.type, b.identifier);
                    return p ? t(p.label) : b.identifier;
                  },
                },
                {
                  key: 'value', title: t('实时值'),
                  render: (_, b) => formatValue(latest.get(b.deviceId)?.values[b.identifier], propertyOf(devices.get(b.deviceId)?.type, b.identifier), t),
                },
                {
                  key: 'actions', title: '', width: 48,
                  render: (_, b) => (
                    <Button type="link" size="small" danger aria-label={t('解除绑定')} icon={<DeleteOutlined />} onClick={() => setDraft(bindings.filter((x) => x.elementId !== b.elementId))} />
                  ),
                },
              ]}
            />
          </Col>
        </Row>
      )}
      <style>{'.ess-diagram svg{max-width:100%;height:auto}.ess-diagram [id]{cursor:pointer}.ess-diagram .ess-bound{fill-opacity:1}.ess-diagram .ess-selected{outline:2px dashed #1677ff;stroke:#1677ff}'}</style>
    </Card>
  );
}
