import { DownloadOutlined } from '@ant-design/icons';
import { Button, Drawer, Tabs } from 'antd';
import { useMemo, useState } from 'react';
import { productEndpoints, type ProductRecord } from '@ess/contract/product';
import { ResourceTable } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/index.ts';
import { callFile } from '../../platform/request.ts';
import { commandResource, eventResource, productResource, propertyResource, staticResource } from './product.resource.tsx';

/** A product's thing model as tabs: properties, events, commands, static properties. */
function ModelDrawer({ product, onClose }: { product: ProductRecord; onClose: () => void }) {
  const t = useT();
  const defs = useMemo(
    () => ({
      property: propertyResource(product.id),
      event: eventResource(product.id),
      command: commandResource(product.id),
      static: staticResource(product.id),
    }),
    [product.id],
  );
  return (
    <Drawer open width={1100} title={`${product.name} (${product.code})`} onClose={onClose} destroyOnHidden>
      <Tabs
        items={[
          { key: 'property', label: t('属性'), children: <ResourceTable def={defs.property} /> },
          { key: 'event', label: t('事件'), children: <ResourceTable def={defs.event} /> },
          { key: 'command', label: t('命令'), children: <ResourceTable def={defs.command} /> },
          { key: 'static', label: t('静态属性'), children: <ResourceTable def={defs.static} /> },
        ]}
      />
    </Drawer>
  );
}

/** /product/management: products with their models; model export/import (xlsx) and latest-data export. */
export function ProductPage() {
  const t = useT();
  const [open, setOpen] = useState<ProductRecord | null>(null);
  const exportModel = (id?: number) => void callFile(productEndpoints.exportModel, id ? { id } : {}, { fileName: `${t('产品模型')}.xlsx` }).catch(() => undefined);
  const exportData = (id: number) => void callFile(productEndpoints.exportData, { id }, { fileName: `${t('产品数据')}.xlsx` }).catch(() => undefined);
  return (
    <>
      <ResourceTable
        def={productResource}
        toolbar={() => [
          <Button key="export-all" icon={<DownloadOutlined />} onClick={() => exportModel()}>
            {t('导出全部模型')}
          </Button>,
        ]}
        rowActions={(row) => [
          <a key="model" onClick={() => setOpen(row)}>
            {t('物模型')}
          </a>,
          <a key="export-model" onClick={() => exportModel(row.id)}>
            {t('导出模型')}
          </a>,
          <a key="export-data" onClick={() => exportData(row.id)}>
            {t('导出数据')}
          </a>,
        ]}
      />
      {open && <ModelDrawer product={open} onClose={() => setOpen(null)} />}
    </>
  );
}
