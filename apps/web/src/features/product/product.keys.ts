/** Query keys of the product templates beyond the resources' own (the template resource's root is ['product', 'template']). */
export const productKeys = {
  template: ['product', 'template'] as const,
  templateProperties: (productId: number) => ['product', 'template', 'properties', productId] as const,
  templateProperty: (id: number) => ['product', 'template', 'property', id] as const,
};
