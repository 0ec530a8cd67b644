// react-admin's Confirm as a module of its own, for LazyConfirm's import.
import { Confirm } from 'react-admin';

export default Confirm;
