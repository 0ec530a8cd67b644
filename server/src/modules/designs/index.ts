// Owns designs: card templates, their artwork files and the SKU mappings they serve.
export { designsResource } from './adminResource';
export { storeGeneratedFile } from './artworkFiles';
export { type Design } from './repo';
export { designsRoutes } from './routes';
export { type HpAdditionData } from './schema';
export { type DesignsPorts, designsService, type DesignsService } from './service';
export { findDesign, findDesignBySku, findDesignsByIds, findDesignsBySkus, productTypesOfSkus } from './queries';
