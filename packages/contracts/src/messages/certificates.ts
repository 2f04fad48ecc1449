/**
 * Sandbox test certificates of an organization (issue 28): the certificates page, the issue form,
 * the server's refusals, and the PSD2 certificate of an application (its view). `{{…}}` are filled
 * in code.
 */
export const certificatesMessages = {
  // The page
  title: 'Sandbox certificates',
  menuLink: 'Sandbox certificates',
  intro:
    'Test certificates for the sandbox, like the eIDAS certificates your organization uses in production: a QWAC for mutual TLS and a QSealC for signing. Each carries the PSD2 QC statement (ETSI TS 119 495) with the PSD2 roles you choose; an application linked to one may use only the APIs of those roles.',
  backToOrganization: 'Back to the organization',
  caTitle: 'Sandbox CA certificate',
  caWarning:
    'For the sandbox only. This CA is not trusted anywhere else: never install it in a browser or a production trust store.',
  caDownload: 'Download the sandbox CA certificate',
  caSubject: 'Subject: {{subject}}',
  caValidUntil: 'Valid until {{date}}',
  listTitle: 'Issued certificates',
  listEmpty: 'No sandbox certificates yet.',
  columnKind: 'Type',
  columnSubject: 'Subject',
  columnRoles: 'PSD2 roles',
  columnSerial: 'Serial number',
  columnValidUntil: 'Valid until',
  columnStatus: 'Status',
  columnActions: 'Actions',
  statusActive: 'Active',
  statusRevoked: 'Revoked on {{date}}',
  statusExpired: 'Expired',
  download: 'Download certificate',
  downloadLabel: 'Download certificate {{serial}}',
  revoke: 'Revoke',
  revokeLabel: 'Revoke certificate {{serial}}',
  cancel: 'Cancel',
  closeNotice: 'Close the notice',
  revokeConfirm:
    'Revoke certificate {{serial}}? Applications linked to it lose their PSD2 roles at once. This action cannot be undone.',
  revoked: 'Certificate {{serial}} revoked.',
  kindQwac: 'QWAC (mutual TLS)',
  kindQseal: 'QSealC (signatures)',
  ownersOnly: 'Only the owners of the organization can issue and revoke sandbox certificates.',

  // The issue form
  issueTitle: 'Issue a sandbox certificate',
  kindLabel: 'Certificate type',
  rolesLabel: 'PSD2 roles',
  commonNameLabel: 'Common name (CN)',
  commonNameHelp: 'Usually your application or service name.',
  ncaNameLabel: 'National competent authority',
  ncaIdLabel: 'Authority identifier',
  keySourceLabel: 'Key',
  keyBrowser: 'Generate a key in this browser',
  keyBrowserHelp:
    'An ECDSA P-256 key is made by your browser. Only the certificate request is sent to the portal: the private key stays with you, download it now.',
  keyCsr: 'Upload a certificate signing request (CSR)',
  csrLabel: 'CSR (PEM)',
  csrFile: 'Load a CSR file',
  csrHelp: 'Starts with -----BEGIN CERTIFICATE REQUEST-----. RSA (2048 bits or more) or ECDSA P-256/P-384.',
  issueButton: 'Issue certificate',
  issuing: 'Issuing…',
  issued: 'Certificate {{serial}} issued.',
  downloadKey: 'Download private key',
  keyWarning:
    'Download the private key now: the portal never had it and cannot show it again. Keep it secret.',
  commonNameRequired: 'Enter a common name.',
  browserNoCrypto: 'This browser cannot generate keys (WebCrypto is not available). Upload a CSR instead.',
  genericError: 'Something went wrong. Please try again',

  // Server refusals (422 unless said)
  kindInvalid: 'The certificate type must be qwac (mutual TLS) or qseal (signatures).',
  rolesRequired: 'Choose at least one PSD2 role: PSP_AS, PSP_PI, PSP_AI or PSP_IC.',
  roleUnknown: '{{role}} is not a PSD2 role: use PSP_AS, PSP_PI, PSP_AI or PSP_IC.',
  ncaNameInvalid: 'The national competent authority name must be 1 to 256 characters.',
  ncaIdInvalid: 'The authority identifier must be 1 to 256 characters (e.g. XX-SANDBOX).',
  csrRequired: 'Paste or upload a certificate signing request (CSR) in PEM.',
  csrNotPem:
    'The CSR is not PEM: it must start with -----BEGIN CERTIFICATE REQUEST----- and end with -----END CERTIFICATE REQUEST-----.',
  csrNotRequest: 'The CSR is not a PKCS #10 certificate request: its content does not decode.',
  csrBadSignature:
    "The CSR's signature does not verify with its own public key: the request was altered or signed with another key.",
  csrUnsupportedKey:
    "The CSR's key is not supported ({{key}}): use RSA with 2048 bits or more, or ECDSA on P-256 or P-384.",
  csrNoCommonName: "The CSR's subject has no common name (CN).",
  commonNameTooLong: 'The common name must be 64 characters or less.',
  ownerRequired: 'Only the owners of the organization can issue and revoke sandbox certificates.',
  notFound: 'This certificate does not exist in this organization.',
  alreadyRevoked: 'This certificate is already revoked.',

  // The application's PSD2 certificate (application view)
  appCertificateTitle: 'PSD2 certificate',
  appCertificateIntro:
    'The PSD2 roles of the linked certificate decide which products this application may subscribe to and which scopes its tokens carry.',
  appCertificateLabel: 'Certificate',
  appCertificateNone: 'No certificate (no PSD2 role limits)',
  appCertificateOption: '{{kind}} {{subject}} ({{roles}}), serial {{serial}}',
  appCertificateSave: 'Save certificate',
  appCertificateSaved: 'Certificate saved.',
  appCertificateManage: 'Manage sandbox certificates',
  appCertificateHolds: 'This application holds the PSD2 roles {{roles}}.',
  certificateNotUsable: 'This certificate is revoked or expired: choose an active one.',
  certificateOtherOrganization: "The certificate must be one of the application's organization.",
  certificateFieldInvalid: 'certificate must be the id of a certificate, or null.',

  // PSD2 role limits (subscriptions, tokens)
  productNeedsRole:
    "{{product}} needs the PSD2 role {{needed}}; this application's certificate holds {{held}}.",
  productNeedsRoles:
    "{{product}} needs the PSD2 roles {{needed}}; this application's certificate holds {{held}}.",
  noRole: 'no PSD2 role',
  revokedHolds: 'no PSD2 role (it is revoked)',
  expiredHolds: 'no PSD2 role (it expired)',
  scopeNeedsRole:
    "scope {{scope}} belongs to {{product}}, which needs the PSD2 role {{needed}}; this application's certificate holds {{held}}",
} as const;
