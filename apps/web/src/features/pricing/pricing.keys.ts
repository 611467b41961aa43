/** Query keys of the pricing screens beyond their resources' own (the template resource's root is ['operation', 'price', 'template']). */
export const pricingKeys = {
  templatesForSite: (siteId: number | null) => ['operation', 'price', 'templates', 'forSite', siteId] as const,
  templateOptions: (siteId: number) => ['operation', 'price', 'templates', 'options', siteId] as const,
};
