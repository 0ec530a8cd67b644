// Owns the charity's order pipeline: buyers into the CRM and email platform, e-cards e-mailed.
export { pipelineContext } from './context';
export { PIPELINE_KIND, type PipelinePayload } from './repo';
export { pipelineRoutes } from './routes';
export { pipelineService } from './service';
export { pipelineRunsOfOrder } from './queries';
