// Owns what a paid order's lines wait for before they are made: the change window and the buyer's proof (line_waits), and the proof links.
export { changesAsked, holdsEnded, markWaitOnce, moveWait, startWaits, waitById, waitingLines, waitingOfOrders, waitsInState, waitsOfOrder, type WaitingOrder } from './service';
export { autoApproveAt, hhmmOf, isPersonalised, personalisationOf, WAIT_STATES, waitFor, waitingOf, waitingReason, waitSettingsOf, type LineWait, type LineWaiting, type WaitSettings, type WaitState } from './waiting';
export { PROOF_LINK_DAYS, proofToken, readProofToken, type ProofLinkRefusal } from './proofLink';
