/**
 * ACM, as far as the edge meets it: the account's certificates, which CloudFront requests for tenants with a
 * managed certificate, listed (ListCertificates) and deleted (DeleteCertificate), on the same server as the
 * local CloudFront (JSON 1.1 protocol: `POST /` with `X-Amz-Target: CertificateManager.<Operation>`, SigV4 scoped
 * to `us-east-1` and `acm`). A tenant's managed certificate is an ACM certificate the account owns ("You own
 * the certificate", "Request certificates for your CloudFront distribution tenant", CloudFront Developer Guide);
 * neither deleting the tenant nor asking it for a new certificate deletes the old one, which stays in ACM, and
 * in its quota, until deleted (`retireCertificate`). ACM refuses to delete a certificate a service uses
 * ("You cannot delete an ACM certificate that is being used by another AWS service", DeleteCertificate):
 * `ResourceInUseException`; one it does not hold: `ResourceNotFoundException`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { type Answer, authentication, CloudFrontError } from './errors.ts';
import type { Account, CertificateStatus, ManagedCertificate, Tenant } from './model.ts';

/** A certificate no tenant holds any more: what ACM still keeps of it. */
type Retired = Pick<ManagedCertificate, 'arn' | 'status' | 'primaryDomainName'>;

const retired = new WeakMap<Account, Map<string, Retired>>();
const retiredOf = (account: Account) => {
  let certificates = retired.get(account);
  if (!certificates) {
    certificates = new Map();
    retired.set(account, certificates);
  }
  return certificates;
};

/** Called when a tenant lets go of its certificate (deleted, or given a new one): ACM keeps it. */
export function retireCertificate(account: Account, tenant: Tenant): void {
  const { certificate } = tenant;
  if (!certificate) return;
  retiredOf(account).set(certificate.arn, {
    arn: certificate.arn,
    status: certificate.status,
    primaryDomainName: certificate.primaryDomainName,
  });
}

/** How many certificates ACM holds for the account: the tenants', and those no tenant holds any more. */
export const certificateCount = (account: Account): number => account.tenants.certified + retiredOf(account).size;

/** An ACM certificate of the account: whether a tenant uses it, and its state in ACM's terms. */
export type AcmCertificate = { arn: string; domainName: string; status: string; inUse: boolean };

/** ACM's `CertificateStatus` for CloudFront's `ManagedCertificateDetails.CertificateStatus`. */
const acmStatus = (status: CertificateStatus) => status.toUpperCase().replaceAll('-', '_');

/** Every certificate the account holds: the tenants' (in use), then those no tenant holds any more. */
export function accountCertificates(account: Account): AcmCertificate[] {
  const used = [...account.tenants.values()].flatMap(({ certificate }) =>
    certificate
      ? [
          {
            arn: certificate.arn,
            domainName: certificate.primaryDomainName,
            status: acmStatus(certificate.status),
            inUse: true,
          },
        ]
      : [],
  );
  const kept = [...retiredOf(account).values()].map((certificate) => ({
    arn: certificate.arn,
    domainName: certificate.primaryDomainName,
    status: acmStatus(certificate.status),
    inUse: false,
  }));
  return [...used, ...kept];
}

const TARGET_PREFIX = 'CertificateManager.';

/** The ACM operation a request names (`X-Amz-Target`), or undefined for a request that is not ACM's. */
export function acmOperationOf(headers: IncomingHttpHeaders): string | undefined {
  const target = headers['x-amz-target'];
  const value = Array.isArray(target) ? target[0] : target;
  return value?.startsWith(TARGET_PREFIX) ? value.slice(TARGET_PREFIX.length) : undefined;
}

/** JSON 1.1 errors: the code in `__type` (and `x-amzn-errortype`), the message in `message`; 400 for all. */
function acmError(failure: CloudFrontError): Answer {
  return {
    status: failure.status,
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': failure.code },
    body: JSON.stringify({ __type: failure.code, message: failure.message }),
  };
}

const json = (body: unknown): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/x-amz-json-1.1' },
  body: JSON.stringify(body),
});

/** ListCertificates' largest page ("MaxItems", Valid Range: 1–1000). */
const PAGE_MAX = 1000;

export function acmOperations(account: Account) {
  const operations: Record<string, (input: Record<string, unknown>) => Answer> = {
    ListCertificates(input) {
      const statuses = Array.isArray(input.CertificateStatuses) ? (input.CertificateStatuses as string[]) : undefined;
      const max = typeof input.MaxItems === 'number' ? input.MaxItems : PAGE_MAX;
      if (!Number.isInteger(max) || max < 1 || max > PAGE_MAX) {
        throw new CloudFrontError('ValidationException', 400, `MaxItems must be between 1 and ${PAGE_MAX}.`);
      }
      const all = accountCertificates(account).filter(
        (certificate) => !statuses || statuses.includes(certificate.status),
      );
      const start = typeof input.NextToken === 'string' ? Number(input.NextToken) : 0;
      if (!Number.isInteger(start) || start < 0) throw new CloudFrontError('InvalidArgsException', 400, 'NextToken');
      const page = all.slice(start, start + max);
      return json({
        CertificateSummaryList: page.map((certificate) => ({
          CertificateArn: certificate.arn,
          DomainName: certificate.domainName,
          Status: certificate.status,
          InUse: certificate.inUse,
          Type: 'AMAZON_ISSUED',
          ManagedBy: 'CLOUDFRONT',
        })),
        ...(start + max < all.length ? { NextToken: String(start + max) } : {}),
      });
    },
    DeleteCertificate(input) {
      const arn = typeof input.CertificateArn === 'string' ? input.CertificateArn : '';
      if (!/^arn:[\w+=/,.@-]+:acm:/.test(arn)) throw new CloudFrontError('InvalidArnException', 400, 'Invalid ARN.');
      // The certificates no tenant holds are found by ARN; only a refusal looks through the tenants'.
      const certificate = retiredOf(account).has(arn)
        ? { inUse: false }
        : accountCertificates(account).find((each) => each.arn === arn);
      if (!certificate) {
        throw new CloudFrontError('ResourceNotFoundException', 400, `Could not find certificate ${arn}.`);
      }
      if (certificate.inUse) {
        throw new CloudFrontError('ResourceInUseException', 400, `Certificate ${arn} is in use.`);
      }
      retiredOf(account).delete(arn);
      return { status: 200, headers: { 'content-type': 'application/x-amz-json-1.1' }, body: '' };
    },
  };

  /** One ACM request: its signature's form (SigV4, `us-east-1`, `acm`), then its operation. */
  return async (operation: string, headers: IncomingHttpHeaders, body: string): Promise<Answer> => {
    try {
      const authorization = String(headers.authorization ?? '');
      if (!authorization) throw authentication.missingToken('Missing Authentication Token');
      if (!/^AWS4-HMAC-SHA256 Credential=[^/]+\/\d{8}\/us-east-1\/acm\/aws4_request,/.test(authorization)) {
        throw authentication.invalidSignature('Credential should be scoped to a valid region.');
      }
      const handler = operations[operation];
      if (!handler) throw new CloudFrontError('UnknownOperationException', 400, `Unknown operation ${operation}.`);
      return handler(body ? (JSON.parse(body) as Record<string, unknown>) : {});
    } catch (error) {
      if (error instanceof CloudFrontError) return acmError(error);
      return acmError(new CloudFrontError('InternalFailure', 500, String(error), 'Receiver'));
    }
  };
}
