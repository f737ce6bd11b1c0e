/**
 * Stoplight Prism in this process, with docs/openapi.json: a validating proxy in front of the
 * local service (every request and every answer is checked against the document, and each
 * violation is kept for the test to fail on), or a mock server that answers every operation
 * with data generated from the document's schemas (json-schema-faker, seeded).
 */
import { createRequire } from 'node:module';
import { Writable } from 'node:stream';
import { openApiDocument, type Origin } from '../../shared/api/openapi.js';

const require = createRequire(import.meta.url);

interface PrismServer {
  listen(port: number, host: string): Promise<string>;
  close(): Promise<void>;
}
const { getHttpOperationsFromSpec, resetJSONSchemaGenerator } = require('@stoplight/prism-http') as {
  getHttpOperationsFromSpec(document: unknown): Promise<unknown[]>;
  resetJSONSchemaGenerator(): void;
};
const { createServer } = require('@stoplight/prism-http-server') as {
  createServer(operations: unknown[], options: { cors: boolean; config: unknown; components: { logger: unknown } }): PrismServer;
};
const { createLogger } = require('@stoplight/prism-core') as { createLogger(name: string, options: object, destination: Writable): unknown };
// The generator Prism itself uses (a dependency of its own), to set how it fills optional fields.
const { JSONSchemaFaker } = createRequire(require.resolve('@stoplight/prism-http'))('json-schema-faker') as { JSONSchemaFaker: { option(name: string, value: unknown): void } };

export interface Violation {
  /** `GET /workspaces/folders/hierarchy`, with the query left out. */
  request: string;
  message: string;
}

export interface RunningPrism {
  url: string;
  /** Every request or response violation seen so far. */
  violations: Violation[];
  /** Requests Prism answered itself with an error (no route in the document, a request it refused). */
  refusals: string[];
  /** Every request as it came (`GET /workspaces`), with the status a mock answered it with (`GET /workspaces 200`). */
  requests: string[];
  close(): Promise<void>;
}

/** Log lines of Prism's pino logger, read as they come: violations and refused requests are kept. */
function collector(violations: Violation[], refusals: string[], requests: string[]): Writable {
  let last = '';
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line.trim() === '') continue;
        let entry: { msg?: string; input?: { method?: string; url?: { path?: string } } };
        try {
          entry = JSON.parse(line) as typeof entry;
        } catch {
          continue;
        }
        if (entry.input?.method) {
          last = `${entry.input.method.toUpperCase()} ${entry.input.url?.path ?? ''}`;
          requests.push(last);
        }
        const msg = entry.msg ?? '';
        const status = /Responding with (?:the requested status code )?"?(\d{3})/.exec(msg)?.[1];
        if (status !== undefined && requests.length > 0) requests[requests.length - 1] = `${last} ${status}`;
        if (msg.startsWith('Violation:')) violations.push({ request: last, message: msg.slice('Violation:'.length).trim() });
        else if (msg.startsWith('Request terminated with error')) refusals.push(`${last}: ${msg}`);
      }
      done();
    },
  });
}

async function start(document: Record<string, unknown>, config: Record<string, unknown>): Promise<RunningPrism> {
  const violations: Violation[] = [];
  const refusals: string[] = [];
  const requests: string[] = [];
  // The parser dereferences in place: it gets a copy.
  const operations = await getHttpOperationsFromSpec(structuredClone(document));
  const logger = createLogger('TEST', { level: 'info' }, collector(violations, refusals, requests));
  const server = createServer(operations, { cors: false, config, components: { logger } });
  const address = await server.listen(0, '127.0.0.1');
  return { url: address, violations, refusals, requests, close: () => server.close() };
}

/**
 * A validating proxy in front of `upstream`: the answers are the service's, untouched (a
 * violation is recorded, not turned into an error, so the client sees what the service sent).
 */
export function startPrismProxy(upstream: string, document: Record<string, unknown> = openApiDocument()): Promise<RunningPrism> {
  return start(document, {
    isProxy: true,
    upstream: new URL(upstream),
    upstreamProxy: undefined,
    validateRequest: true,
    validateResponse: true,
    checkSecurity: true,
    errors: false,
    mock: { dynamic: false },
  });
}

/**
 * A mock of the operations of `origins`, answering with data generated from the schemas, the
 * same data for the same seed. Optional fields are left out or filled at random.
 */
export function startPrismMock(seed: number, origins: readonly Origin[] = ['reference', 'ours']): Promise<RunningPrism> {
  resetJSONSchemaGenerator();
  // Prism fills every optional field; half of them are left out here, as a real service may.
  JSONSchemaFaker.option('alwaysFakeOptionals', false);
  JSONSchemaFaker.option('fixedProbabilities', false);
  JSONSchemaFaker.option('optionalsProbability', 0.5);
  JSONSchemaFaker.option('maxItems', 5);
  return start(openApiDocument({ origins }), {
    isProxy: false,
    validateRequest: true,
    validateResponse: true,
    checkSecurity: true,
    errors: false,
    mock: { dynamic: true, seed },
  });
}
