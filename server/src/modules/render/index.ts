// Owns rendering designs to PNG previews (worker pool, fonts) and drawing a personalised line's pages.
export { registerBundledFonts } from './fonts';
export { renderRoutes } from './routes';
export { drawLine, type DrawnLine } from './drawLine';
export { documentOf, DocumentProblem, DPI_RANGE, renderService, type RenderService, stopRenderWorkers, valuesOf } from './service';
