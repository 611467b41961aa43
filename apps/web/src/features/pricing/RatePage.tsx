import { useQuery } from '@tanstack/react-query';
import { Card, Empty, Space, Typography } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { siteListQuery, type SiteRef } from '../../components/options/sites.ts';
import { StationPicker } from '../../components/StationPicker.tsx';
import { usableTemplatesQuery } from './pricing.options.ts';
import { sitePriceResource, solarPriceResource } from './site-price.resource.tsx';

const HAS_PV = new Set(['pv', 'storagePv', 'storagePvCharging']);

/** One station's configuration and feed-in price lists. */
function StationRates({ site }: { site: SiteRef }) {
  const t = useT();
  const templates = useQuery(usableTemplatesQuery(site.id));
  const byId = useMemo(() => new Map((templates.data ?? []).map((x) => [x.id, x])), [templates.data]);
  const configDef = useMemo(() => sitePriceResource(site, (id) => byId.get(id)), [site, byId]);
  const solarDef = useMemo(() => solarPriceResource(site), [site]);
  const noTemplate = templates.data !== undefined && templates.data.length === 0;
  return (
    <>
      <ResourceTable
        def={configDef}
        emptyText={
          noTemplate
            ? t('没有可用的电价模板：请先在“电价模板”中为站点所属公司新增币种为 $1 的模板', site.currency)
            : t('该站点尚未配置电价：新增一条配置，选择电价模板和生效日期后，收益按此电价计算')
        }
      />
      <ResourceTable
        def={solarDef}
        emptyText={HAS_PV.has(site.siteType) ? t('该站点尚未配置光伏上网电价：新增后光伏上网电量按此计价') : t('该站点没有光伏，无需配置上网电价')}
      />
    </>
  );
}

/**
 * /operatecfg/rate: a station's electricity price over time (which template from when, with the
 * charging service fee) and its PV feed-in prices. Dates are the station's own calendar days.
 */
export function RatePage() {
  const t = useT();
  const [site, setSite] = useState<SiteRef | null>(null);
  const sites = useQuery(siteListQuery);
  const onSite = useCallback((_id: number, s: SiteRef) => setSite(s), []);
  const none = sites.isSuccess && sites.data.length === 0;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small">
        <Space wrap size={16}>
          <Space>
            <label htmlFor="rate-site">{t('站点')}</label>
            <StationPicker autoSelectFirst id="rate-site" value={site?.id ?? null} onChange={onSite} />
          </Space>
          {site && (
            <Typography.Text type="secondary">
              {t('日期为站点当地日期（$1），金额币种 $2', site.timeZone, site.currency)}
            </Typography.Text>
          )}
        </Space>
      </Card>
      {none ? (
        <Card>
          <Empty description={t('暂无可访问的站点，无法配置电价')} />
        </Card>
      ) : site ? (
        <StationRates key={site.id} site={site} />
      ) : null}
    </Space>
  );
}
