export {
	answerId,
	credentialsOf,
	idInAnswer,
	recordsIn,
	wootricRequest,
	type WootricContext,
} from './request';
export {
	IgnoredParametersError,
	listAll,
	MAX_PAGE,
	PER_PAGE,
	type ListRequest,
	type TimeField,
	type TimeRange,
	type UnreadableRecords,
} from './paging';
export { flattenParams, type ParamHash } from './encoding';
export { parseWootricDatetime, wootricSeconds } from './datetime';
export { declaring, isNotFound, OutOfTimeError } from './failures';
