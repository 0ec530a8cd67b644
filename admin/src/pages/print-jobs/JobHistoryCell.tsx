import { JobHistoryButton } from '../../components/JobHistoryButton';
import type { PrintJobActionProps } from './PrintJobTable';

/** The History column of Jobs and Print History: who did what to the job, in a dialog. */
export function JobHistoryCell({ job }: PrintJobActionProps) {
  return <JobHistoryButton jobId={job.id} />;
}
