import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A key and self-signed certificate for 127.0.0.1, for the fake to serve HTTPS with. */
export interface BenchTls {
	key: string;
	cert: string;
}

/**
 * The bench's certificate, trusted the way a user trusts a private CA in n8n: NODE_EXTRA_CA_CERTS,
 * which Node reads only at start. So the first process makes the certificate (openssl) and runs the
 * bench again in a child that trusts it; that child gets the certificate back from here. Undici's
 * keep-alive floor trusts it the same way. The CAs the first process was told to trust stay trusted
 * in the child: npm, installing the package into n8n, may reach its registry through one.
 */
export function trustedTls(folder: string): BenchTls | 'ran in a child' {
	const keyFile = path.join(folder, 'bench-key.pem');
	const certFile = path.join(folder, 'bench-cert.pem');
	const trustedFile = path.join(folder, 'bench-trusted.pem');
	if (process.env.NODE_EXTRA_CA_CERTS === trustedFile && existsSync(certFile)) {
		return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
	}
	mkdirSync(folder, { recursive: true });
	execFileSync(
		'openssl',
		[
			'req',
			'-x509',
			'-newkey',
			'ec',
			'-pkeyopt',
			'ec_paramgen_curve:prime256v1',
			'-nodes',
			'-days',
			'2',
		].concat([
			'-subj',
			'/CN=127.0.0.1',
			'-addext',
			'subjectAltName=IP:127.0.0.1',
			'-keyout',
			keyFile,
			'-out',
			certFile,
		]),
		{ stdio: 'ignore' },
	);
	const alreadyTrusted = process.env.NODE_EXTRA_CA_CERTS;
	writeFileSync(
		trustedFile,
		[alreadyTrusted && existsSync(alreadyTrusted) ? readFileSync(alreadyTrusted, 'utf8') : '']
			.concat(readFileSync(certFile, 'utf8'))
			.join('\n'),
	);
	const child = spawnSync(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
		stdio: 'inherit',
		env: { ...process.env, NODE_EXTRA_CA_CERTS: trustedFile },
	});
	process.exitCode = child.status ?? 1;
	return 'ran in a child';
}
