/** DynamoDB failures that mean "try again shortly" once the SDK's own retries are spent. */
const TRANSIENT_ERRORS = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'TransactionConflictException',
]);

const TRANSIENT_NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

export function isTransientAwsError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code;
  const metadata = (error as { $metadata?: { httpStatusCode?: number } }).$metadata;
  return (
    TRANSIENT_ERRORS.has(error.name) ||
    (code !== undefined && TRANSIENT_NETWORK_CODES.has(code)) ||
    (metadata?.httpStatusCode !== undefined && metadata.httpStatusCode >= 500)
  );
}
