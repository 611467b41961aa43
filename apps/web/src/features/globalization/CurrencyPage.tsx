import { ResourceTable } from '../../components/crud/index.ts';
import { currencyResource } from './currency.resource.tsx';

/** /globalization/currency: currencies (ISO 4217 code, symbol, name, minor units); a duplicate code is refused. */
export function CurrencyPage() {
  return <ResourceTable def={currencyResource} />;
}
