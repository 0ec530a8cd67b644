// Owns rendering designs to PNG previews (worker pool, fonts).
export { registerBundledFonts } from './fonts';
export { renderRoutes } from './routes';
export { documentOf, DocumentProblem, DPI_RANGE, renderService, type RenderService, stopRenderWorkers, valuesOf } from './service';
