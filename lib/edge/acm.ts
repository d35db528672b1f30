/**
 * The account's ACM certificates, for the edge's sweep and teardown (`EdgeCertificates`). A distribution
 * tenant's CloudFront-managed certificate is an ACM certificate in the account ("You own the certificate",
 * "Request certificates for your CloudFront distribution tenant", CloudFront Developer Guide), in us-east-1 where
 * CloudFront's certificates live. Deleting the tenant does not delete it (DeleteDistributionTenant's page names
 * no certificate), and ACM refuses to delete one a service still uses (DeleteCertificate,
 * `ResourceInUseException`): so the tenant goes first, then its certificate.
 */
import {
  ACMClient,
  CertificateStatus,
  DeleteCertificateCommand,
  KeyAlgorithm,
  ListCertificatesCommand,
  ResourceInUseException,
  ResourceNotFoundException,
} from '@aws-sdk/client-acm';
import type { EdgeCertificates } from './ports.ts';

/** CloudFront's certificates are ACM's in US East (N. Virginia) ("Requirements for using SSL/TLS certificates"). */
export const CLOUDFRONT_CERTIFICATE_REGION = 'us-east-1';

export function acmCertificates(client: ACMClient): EdgeCertificates {
  return {
    async remove(arn) {
      try {
        await client.send(new DeleteCertificateCommand({ CertificateArn: arn }));
        return 'deleted';
      } catch (error) {
        if (error instanceof ResourceInUseException) return 'in_use';
        if (error instanceof ResourceNotFoundException) return 'gone';
        throw error;
      }
    },
    /**
     * Every certificate in the account, whatever its state or key: ACM's quota counts them all, expired and failed
     * ones too, and ListCertificates returns only RSA 2048 keys unless told otherwise (its `Includes.keyTypes`).
     */
    async count() {
      let total = 0;
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListCertificatesCommand({
            CertificateStatuses: Object.values(CertificateStatus),
            Includes: { keyTypes: Object.values(KeyAlgorithm) },
            MaxItems: 1000,
            NextToken: token,
          }),
        );
        total += page.CertificateSummaryList?.length ?? 0;
        token = page.NextToken;
      } while (token);
      return total;
    },
  };
}

export { ACMClient };
