import LanIcon from '@mui/icons-material/Lan';
import { plainRecordResource } from '../plain-records/resource';

export default plainRecordResource({ resource: 'instances', title: 'Instances', one: 'instance' }, LanIcon);
