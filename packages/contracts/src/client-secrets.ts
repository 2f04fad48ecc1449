import { z } from 'zod';
import { clientSecretsMessages } from './messages/client-secrets.ts';

/**
 * Client secret rotation with overlap (issue 28): `GET/POST /api/applications/{id}/secrets`,
 * `DELETE /api/applications/{id}/secrets/{secretId}` (applications README 'Client secrets').
 */
export const CLIENT_SECRET_TYPE = 'oauth_client_secret';

/** The grace period of the previous secrets, in hours: 1 hour to 30 days. */
export const GRACE_PERIOD_MIN_HOURS = 1;
export const GRACE_PERIOD_MAX_HOURS = 720;
/** The choices the application view offers. */
export const GRACE_PERIOD_CHOICES = [1, 6, 24, 72, 168, 336, 720] as const;

const M = clientSecretsMessages.errors;

/** POST /api/applications/{id}/secrets: rotate the secret of one environment's client. */
export const rotateSecretSchema = z.object({
  data: z.object({
    type: z.literal(CLIENT_SECRET_TYPE, { message: `The type must be '${CLIENT_SECRET_TYPE}'.` }),
    attributes: z.object({
      environment: z.enum(['DEVELOPMENT', 'PRODUCTION'], { message: M.environment }).default('DEVELOPMENT'),
      gracePeriodHours: z
        .number({ message: M.gracePeriod })
        .int(M.gracePeriod)
        .min(GRACE_PERIOD_MIN_HOURS, M.gracePeriod)
        .max(GRACE_PERIOD_MAX_HOURS, M.gracePeriod),
    }),
  }),
});
export type RotateSecretRequest = z.input<typeof rotateSecretSchema>;

/** One secret as the API lists it (never its value, except once in the rotation's answer). */
export type ClientSecretAttributes = {
  environment: 'DEVELOPMENT' | 'PRODUCTION';
  client_id: string;
  /** ISO date-time. */
  created: string;
  /** ISO date-time; null for the current secret. */
  expires: string | null;
  current: boolean;
  expired: boolean;
};

export interface ClientSecretResource {
  type: typeof CLIENT_SECRET_TYPE;
  id: string;
  attributes: ClientSecretAttributes;
}

export interface ClientSecretList {
  data: ClientSecretResource[];
}

/** 201 of a rotation: the new secret, its value shown once in meta. */
export interface RotatedSecret {
  data: ClientSecretResource;
  meta: { secret: string; message: string; previousExpires: string };
}
