export { wootricRequest, RETRY, type WootricContext, type WootricRequest } from './request';
export { listAll, MAX_PAGE, PER_PAGE, type CreatedRange, type ListRequest } from './paging';
export { encodeParams, flattenParams, type ParamHash, type ParamValue } from './encoding';
export { normalizeDatetimes, parseWootricDatetime, wootricSeconds } from './datetime';
export { parseSerializedProperties } from './properties';
export { npsCategory, simplifyRecord, type NpsCategory } from './records';
export { checkInput, ReachedFirstRequest } from './input-check';
