/**
 * Client authentication methods of an application's OAuth clients (issue 28, decision 049): the
 * form's values, the JSON:API attributes that carry them and what the application view shows.
 */
export const CLIENT_AUTH_METHODS = [
  'client_secret',
  'private_key_jwt',
  'tls_client_auth',
  'self_signed_tls_client_auth',
] as const;
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

/** The application document's attributes for the method (create and edit_app_custom). */
export const CLIENT_AUTH_ATTRIBUTES = {
  method: 'field_client_auth_method',
  jwks: 'field_client_jwks',
  jwksUri: 'field_client_jwks_uri',
  tlsSubjectDn: 'field_client_tls_subject_dn',
} as const;

/** The form's section: the JWKS as pasted text; '' for what the method does not use. */
export interface ClientAuthForm {
  method: ClientAuthMethod;
  jwks: string;
  jwksUri: string;
  tlsSubjectDn: string;
}

export const defaultClientAuthForm: ClientAuthForm = {
  method: 'client_secret',
  jwks: '',
  jwksUri: '',
  tlsSubjectDn: '',
};

/** What the application resource says (attribute field_client_authentication, meta's application). */
export interface ClientAuthenticationView {
  method: ClientAuthMethod;
  /** The registered public keys (JWKS), or null. */
  jwks: { keys: Record<string, unknown>[] } | null;
  jwksUri: string | null;
  tlsSubjectDn: string | null;
}

/** The form's values for a stored method (edit). */
export function clientAuthFormOf(view: ClientAuthenticationView | undefined): ClientAuthForm {
  if (!view) return { ...defaultClientAuthForm };
  return {
    method: view.method,
    jwks: view.jwks ? JSON.stringify(view.jwks, null, 2) : '',
    jwksUri: view.jwksUri ?? '',
    tlsSubjectDn: view.tlsSubjectDn ?? '',
  };
}

/** The attributes a form sends (the fields its method does not use are sent empty). */
export function clientAuthAttributes(form: ClientAuthForm): Record<string, string> {
  const keys = form.method === 'private_key_jwt' || form.method === 'self_signed_tls_client_auth';
  return {
    [CLIENT_AUTH_ATTRIBUTES.method]: form.method,
    [CLIENT_AUTH_ATTRIBUTES.jwks]: keys && !form.jwksUri.trim() ? form.jwks : '',
    [CLIENT_AUTH_ATTRIBUTES.jwksUri]: keys ? form.jwksUri.trim() : '',
    [CLIENT_AUTH_ATTRIBUTES.tlsSubjectDn]: form.method === 'tls_client_auth' ? form.tlsSubjectDn.trim() : '',
  };
}
