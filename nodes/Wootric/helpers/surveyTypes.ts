/**
 * The survey an account runs, which decides how its scores are judged. Wootric keeps the type with
 * the account token and leaves it out of responses, so the credential says it (Survey Type); a
 * webhook delivery also names it (`survey_mode`).
 */
import { credentialsOf, type WootricContext } from '../transport';

export type SurveyType = 'nps' | 'csat5' | 'csat10' | 'ces7';

/**
 * The three categories of a scale, low to high, by the values the Category filters save: NPS's
 * names, kept for every type so that saved workflows read on (a CES account's "detractor" is its
 * negative category).
 */
export const CATEGORY_VALUES = ['detractor', 'passive', 'promoter'] as const;
export type CategoryValue = (typeof CATEGORY_VALUES)[number];

export interface SurveyScale {
	type: SurveyType;
	/** How webhooks name the type: NPS, CSAT or CES. */
	mode: 'NPS' | 'CSAT' | 'CES';
	/** For messages: `CES 1–7`. */
	label: string;
	min: number;
	max: number;
	/** The top score of the low and of the middle category. */
	lowMax: number;
	middleMax: number;
	/** The field a record's category is added as, and the category names low to high. */
	categoryField: 'nps_category' | 'score_category';
	names: readonly [string, string, string];
}

const SATISFACTION = {
	categoryField: 'score_category',
	names: ['negative', 'neutral', 'positive'],
} as const;

/** The thresholds Wootric's own mobile SDKs draw. */
export const SURVEY_SCALES: Record<SurveyType, SurveyScale> = {
	nps: {
		type: 'nps',
		mode: 'NPS',
		label: 'NPS 0–10',
		min: 0,
		max: 10,
		lowMax: 6,
		middleMax: 8,
		categoryField: 'nps_category',
		names: ['detractor', 'passive', 'promoter'],
	},
	csat5: {
		type: 'csat5',
		mode: 'CSAT',
		label: 'CSAT 1–5',
		min: 1,
		max: 5,
		lowMax: 2,
		middleMax: 3,
		...SATISFACTION,
	},
	csat10: {
		type: 'csat10',
		mode: 'CSAT',
		label: 'CSAT 1–10',
		min: 1,
		max: 10,
		lowMax: 6,
		middleMax: 8,
		...SATISFACTION,
	},
	ces7: {
		type: 'ces7',
		mode: 'CES',
		label: 'CES 1–7',
		min: 1,
		max: 7,
		lowMax: 3,
		middleMax: 5,
		...SATISFACTION,
	},
};

export const NPS_SCALE = SURVEY_SCALES.nps;

/** The credential's Survey Type; a credential saved before it existed is NPS. */
export function scaleOfCredential(credentials: { surveyType?: unknown }): SurveyScale {
	const type = credentials.surveyType;
	return typeof type === 'string' && type in SURVEY_SCALES
		? SURVEY_SCALES[type as SurveyType]
		: NPS_SCALE;
}

/** 0, 1 or 2: the score's category, low to high. */
export function categoryIndex(scale: SurveyScale, score: number): 0 | 1 | 2 {
	return score <= scale.lowMax ? 0 : score <= scale.middleMax ? 1 : 2;
}

/** The score's category as the scale names it: `detractor` (NPS), `negative` (CSAT, CES). */
export function categoryName(scale: SurveyScale, score: number): string {
	return scale.names[categoryIndex(scale, score)];
}

/** How the Category options read on every type: `NPS 0–6, CSAT 1–2 or 1–6, CES 1–3`. */
export function categoryRanges(index: 0 | 1 | 2): string {
	const range = ({ min, lowMax, middleMax, max }: SurveyScale) => {
		const [from, to] = [
			[min, lowMax],
			[lowMax + 1, middleMax],
			[middleMax + 1, max],
		][index];
		return from === to ? String(from) : `${from}–${to}`;
	};
	const { nps, csat5, csat10, ces7 } = SURVEY_SCALES;
	return `NPS ${range(nps)}, CSAT ${range(csat5)} (of 5) or ${range(csat10)} (of 10), CES ${range(ces7)}`;
}

/** The survey type of the context's credential (read once per execution context). */
export async function surveyScaleOf(context: WootricContext): Promise<SurveyScale> {
	return scaleOfCredential(await credentialsOf(context));
}
