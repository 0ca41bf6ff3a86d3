/** One request of a test event: to which URL, and what came of it. */
export interface DestinationTestAttempt {
  url: string;
  /** The HTTP status, when the URL answered. */
  status?: number;
  durationMs: number;
  /** The start of the response body, as the receiver sent it (the page escapes it). */
  bodyStart?: string;
  /** Why no status came back: a timeout, a refused connection, a TLS error. */
  error?: string;
}

export interface DestinationTestReport {
  /** In the order the URLs were tried. */
  results: DestinationTestAttempt[];
}

/**
 * Sends a sample call through the pipeline to one destination and reports each URL tried. An
 * abstract class so that it is its own injection token.
 */
export abstract class DestinationTester {
  abstract test(destinationId: string): Promise<DestinationTestReport>;
}
