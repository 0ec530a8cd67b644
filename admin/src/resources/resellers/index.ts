import HandshakeIcon from '@mui/icons-material/Handshake';
import { plainRecordResource } from '../plain-records/resource';

export default plainRecordResource({ resource: 'resellers', title: 'Resellers', one: 'reseller' }, HandshakeIcon);
