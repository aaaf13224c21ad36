import type { RadioOption } from '../../shared/components/RadioGroup';
import type { ProductFilter } from './catalog-store';

const PRODUCT_LABELS: Record<string, string> = {
  residential: 'Residential',
  mobile: 'Mobile ports',
  'mobile-gb': 'Mobile GB',
};

export const productLabel = (product: string) => PRODUCT_LABELS[product] ?? product;

export const PRODUCT_FILTER_OPTIONS: readonly RadioOption<ProductFilter>[] = [
  { value: 'all', label: 'All' },
  { value: 'residential', label: 'Residential' },
  { value: 'mobile', label: 'Mobile ports' },
  { value: 'mobile-gb', label: 'Mobile GB' },
];
