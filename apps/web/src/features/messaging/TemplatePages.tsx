import { mailTemplateEndpoints, smsTemplateEndpoints, type MailPreview, type SmsPreview } from '@ess/contract/messaging';
import { useState } from 'react';
import { ResourceTable, type ResourceDef } from '../../components/crud/index.ts';
import { useT } from '../../platform/i18n/useT.ts';
import { useCan } from '../../platform/permissions.ts';
import { call } from '../../platform/request.ts';
import { mailTemplateResource } from './mail-template.resource.tsx';
import { PreviewModal, RowButton } from './parts.tsx';
import { smsTemplateResource } from './sms-template.resource.tsx';

/** A template list with a preview of each saved template against a chosen station. */
function TemplateList<R extends { id: number }, F>({ def, preview, canPreview }: { def: ResourceDef<R, F>; preview: (id: number, siteId?: number) => Promise<MailPreview | SmsPreview>; canPreview: boolean }) {
  const t = useT();
  const [open, setOpen] = useState<number | null>(null);
  return (
    <>
      <ResourceTable
        def={def}
        rowActions={(row) => (canPreview ? [<RowButton key="preview" icon="preview" text={t('预览')} testId="template-preview" onClick={() => setOpen(row.id)} />] : [])}
      />
      {open !== null && <PreviewModal load={(siteId) => preview(open, siteId)} onClose={() => setOpen(null)} />}
    </>
  );
}

/** /mail/mail-template: mail templates, previewed with a station's data. */
export function MailTemplatePage() {
  const can = useCan(mailTemplateEndpoints.preview);
  return <TemplateList def={mailTemplateResource} canPreview={can} preview={(id, siteId) => call(mailTemplateEndpoints.preview, { id, ...(siteId ? { siteId } : {}) })} />;
}

/** /sms/sms-template: SMS templates, previewed with a station's data (length and segments). */
export function SmsTemplatePage() {
  const can = useCan(smsTemplateEndpoints.preview);
  return <TemplateList def={smsTemplateResource} canPreview={can} preview={(id, siteId) => call(smsTemplateEndpoints.preview, { id, ...(siteId ? { siteId } : {}) })} />;
}
