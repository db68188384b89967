import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The service signs each webhook with `X-Wootric-Signature: sha1=<hex>`, the HMAC-SHA1 of the raw
 * body keyed with the account's webhook secret token.
 */
export type SignatureCheck = 'valid' | 'missing' | 'unsupported algorithm' | 'mismatch';

const SIGNATURE = /^([A-Za-z0-9-]+)=([0-9a-fA-F]+)$/;

/** Compares in constant time, so a wrong signature tells nothing of the right one. */
export function checkSignature(
	body: Buffer,
	header: string | string[] | undefined,
	secret: string,
): SignatureCheck {
	const given = Array.isArray(header) ? header[0] : header;
	if (given === undefined || given.trim() === '') return 'missing';
	const match = SIGNATURE.exec(given.trim());
	if (!match || match[1].toLowerCase() !== 'sha1') return 'unsupported algorithm';
	const expected = createHmac('sha1', secret).update(body).digest();
	const received = Buffer.from(match[2].length % 2 === 0 ? match[2] : '', 'hex');
	return received.length === expected.length && timingSafeEqual(received, expected)
		? 'valid'
		: 'mismatch';
}
