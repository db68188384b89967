import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import { promisify } from 'node:util';

/** One attempt to go out through the proxy: a CONNECT, or a plain proxied http request. */
export interface ProxyConnect {
	method: string;
	host: string;
	port: number;
	allowed: boolean;
	at: string;
}

/**
 * A CONNECT proxy on 127.0.0.1 for n8n's HTTPS_PROXY, which stands in for the internet: a CONNECT
 * to an allow-listed `host:443` is answered 200 and the tunnel's TLS is terminated here, with a
 * certificate for that host signed by a throwaway CA (n8n trusts it through NODE_EXTRA_CA_CERTS),
 * and the decrypted connection is handed to that host's fake (an http.Server). Every other CONNECT,
 * and any plain http request, is refused 403. All of them are recorded in `connects`, so a test can
 * show nothing else tried to go out.
 *
 * The CA and certificate are made with the `openssl` command at `start()`, in a temporary folder
 * `close()` removes.
 */
export class ToolsProxy {
	readonly connects: ProxyConnect[] = [];
	url = '';
	/** The CA certificate n8n (or a test's client) must trust. */
	caFile = '';
	private folder = '';
	private key = '';
	private cert = '';
	private readonly server: Server;
	private readonly sockets = new Set<Socket>();

	/** `routes`: host → the server that answers it, e.g. `{'slack.com': slack.server}`. */
	constructor(private readonly routes: Record<string, Server>) {
		this.server = createServer((request, response) => {
			this.record(request.method ?? 'GET', hostAndPort(request), false);
			response.writeHead(403, { 'content-type': 'text/plain' });
			response.end('This proxy only tunnels https to its fakes.\n');
		});
		this.server.on('connect', (request: IncomingMessage, socket: Socket, head: Buffer) =>
			this.tunnel(request, socket, head),
		);
	}

	/** The connections that were refused. */
	get refused(): ProxyConnect[] {
		return this.connects.filter((connect) => !connect.allowed);
	}

	async start(): Promise<this> {
		this.folder = await mkdtemp(join(tmpdir(), 'tools-proxy-'));
		await this.makeCertificates();
		this.server.listen(0, '127.0.0.1');
		await once(this.server, 'listening');
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return this;
	}

	/** What n8n's environment needs to go through the proxy (and nowhere else through it). */
	n8nEnv(): Record<string, string> {
		const noProxy = 'localhost,127.0.0.1,::1';
		return {
			HTTPS_PROXY: this.url,
			https_proxy: this.url,
			NO_PROXY: noProxy,
			no_proxy: noProxy,
			NODE_EXTRA_CA_CERTS: this.caFile,
		};
	}

	async close(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		if (this.server.listening) {
			this.server.close();
			await once(this.server, 'close');
		}
		if (this.folder !== '') await rm(this.folder, { recursive: true, force: true });
	}

	private tunnel(request: IncomingMessage, socket: Socket, head: Buffer): void {
		const { host, port } = hostAndPort(request);
		const target = port === 443 ? this.routes[host] : undefined;
		this.record('CONNECT', { host, port }, target !== undefined);
		// A client that gave up mid-handshake must not take the proxy down.
		socket.on('error', () => socket.destroy());
		if (!target) {
			socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
			return;
		}
		this.sockets.add(socket);
		socket.on('close', () => this.sockets.delete(socket));
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head.length > 0) socket.unshift(head);
		const tls = new TLSSocket(socket, {
			isServer: true,
			key: this.key,
			cert: this.cert,
			ALPNProtocols: ['http/1.1'],
		});
		tls.on('error', () => tls.destroy());
		target.emit('connection', tls);
	}

	private record(method: string, { host, port }: { host: string; port: number }, allowed: boolean) {
		this.connects.push({ method, host, port, allowed, at: new Date().toISOString() });
	}

	/** A CA, and one certificate for every routed host signed by it. */
	private async makeCertificates(): Promise<void> {
		const file = (name: string) => join(this.folder, name);
		const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
		await openssl(
			['req', '-x509', ...key, '-keyout', file('ca.key'), '-out', file('ca.pem')].concat(
				['-days', '2', '-subj', '/CN=n8n-nodes-wootric tools proxy test CA'],
				[
					'-addext',
					'basicConstraints=critical,CA:TRUE',
					'-addext',
					'keyUsage=critical,keyCertSign,cRLSign',
				],
			),
		);
		const hosts = Object.keys(this.routes);
		await writeFile(
			file('leaf.ext'),
			[
				`subjectAltName=${hosts.map((host) => `DNS:${host}`).join(',')}`,
				'basicConstraints=CA:FALSE',
				'keyUsage=critical,digitalSignature',
				'extendedKeyUsage=serverAuth',
			].join('\n'),
		);
		await openssl([
			'req',
			...key,
			'-keyout',
			file('leaf.key'),
			'-out',
			file('leaf.csr'),
			'-subj',
			`/CN=${hosts[0] ?? 'localhost'}`,
		]);
		await openssl(
			[
				'x509',
				'-req',
				'-in',
				file('leaf.csr'),
				'-CA',
				file('ca.pem'),
				'-CAkey',
				file('ca.key'),
			].concat([
				'-CAcreateserial',
				'-days',
				'2',
				'-extfile',
				file('leaf.ext'),
				'-out',
				file('leaf.pem'),
			]),
		);
		this.caFile = file('ca.pem');
		this.key = await readFile(file('leaf.key'), 'utf8');
		this.cert = await readFile(file('leaf.pem'), 'utf8');
		// Only the CA certificate is needed from here on: a process killed before close() leaves no
		// private key behind.
		for (const name of ['ca.key', 'ca.srl', 'leaf.key', 'leaf.csr', 'leaf.pem', 'leaf.ext']) {
			await rm(file(name), { force: true });
		}
	}
}

async function openssl(args: string[]): Promise<void> {
	try {
		await promisify(execFile)('openssl', args);
	} catch (error) {
		const { code, stderr } = error as { code?: string; stderr?: string };
		if (code === 'ENOENT') {
			throw new Error(
				'The tools proxy makes its test CA with the `openssl` command, which is not on PATH: install OpenSSL.',
			);
		}
		throw new Error(`openssl ${args[0]} failed: ${stderr ?? String(error)}`);
	}
}

/** `host:port` of a CONNECT, or the host and port of a plain proxied request's absolute URL. */
function hostAndPort(request: IncomingMessage): { host: string; port: number } {
	if (request.method === 'CONNECT') {
		const match = /^\[?([^\]]*?)\]?:(\d+)$/.exec(request.url ?? '');
		return match
			? { host: match[1].toLowerCase(), port: Number(match[2]) }
			: { host: String(request.url), port: 0 };
	}
	try {
		const url = new URL(request.url ?? '', `http://${request.headers.host ?? 'unknown'}`);
		return { host: url.hostname.toLowerCase(), port: Number(url.port || 80) };
	} catch {
		return { host: String(request.url), port: 0 };
	}
}
