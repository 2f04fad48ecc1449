import {
  AsnArray,
  AsnParser,
  AsnProp,
  AsnPropTypes,
  AsnSerializer,
  AsnType,
  AsnTypeTypes,
} from '@peculiar/asn1-schema';

/**
 * The qcStatements certificate extension (RFC 3739, 1.3.6.1.5.5.7.1.3) with the PSD2 statement of
 * ETSI TS 119 495 and the qcType of ETSI EN 319 412-5, as asn1-schema structures: no library ships
 * them. The schema is declared by calling asn1-schema's decorators as functions (Node runs the
 * server's TypeScript by stripping types, which leaves no decorator syntax). One parser for every
 * certificate: the sandbox's and real ones (the go-live check, applications/certificate.ts).
 *
 *   QCStatements ::= SEQUENCE OF QCStatement
 *   QCStatement  ::= SEQUENCE { statementId OBJECT IDENTIFIER, statementInfo ANY OPTIONAL }
 *   PSD2QcType   ::= SEQUENCE { rolesOfPSP RolesOfPSP, nCAName UTF8String, nCAId UTF8String }
 *   RolesOfPSP   ::= SEQUENCE OF RoleOfPSP
 *   RoleOfPSP    ::= SEQUENCE { roleOfPspOid OBJECT IDENTIFIER, roleOfPspName UTF8String }
 *   QcType       ::= SEQUENCE OF OBJECT IDENTIFIER
 */
export const QC_STATEMENTS_OID = '1.3.6.1.5.5.7.1.3';
export const PSD2_QC_STATEMENT_OID = '0.4.0.19495.2';
/** id-etsi-qcs-QcCompliance: the certificate is qualified (EU). */
export const QC_COMPLIANCE_OID = '0.4.0.1862.1.1';
/** id-etsi-qcs-QcType, with the types below. */
export const QC_TYPE_OID = '0.4.0.1862.1.6';
export const QC_TYPE_ESEAL = '0.4.0.1862.1.6.2';
export const QC_TYPE_WEB = '0.4.0.1862.1.6.3';

/** The four PSD2 roles of a payment service provider, with their OIDs (ETSI TS 119 495 5.1). */
export const PSD2_ROLES = ['PSP_AS', 'PSP_PI', 'PSP_AI', 'PSP_IC'] as const;
export type Psd2Role = (typeof PSD2_ROLES)[number];
export const PSD2_ROLE_OIDS: Record<Psd2Role, string> = {
  PSP_AS: '0.4.0.19495.1.1',
  PSP_PI: '0.4.0.19495.1.2',
  PSP_AI: '0.4.0.19495.1.3',
  PSP_IC: '0.4.0.19495.1.4',
};
export const PSD2_ROLE_LABELS: Record<Psd2Role, string> = {
  PSP_AS: 'Account servicing (ASPSP)',
  PSP_PI: 'Payment initiation (PISP)',
  PSP_AI: 'Account information (AISP)',
  PSP_IC: 'Issuing of card-based payment instruments (PIISP)',
};

export function isPsd2Role(value: unknown): value is Psd2Role {
  return typeof value === 'string' && (PSD2_ROLES as readonly string[]).includes(value);
}

export class RoleOfPsp {
  roleOfPspOid = '';
  roleOfPspName = '';
  constructor(params: Partial<RoleOfPsp> = {}) {
    Object.assign(this, params);
  }
}
AsnType({ type: AsnTypeTypes.Sequence })(RoleOfPsp);
AsnProp({ type: AsnPropTypes.ObjectIdentifier })(RoleOfPsp.prototype, 'roleOfPspOid');
AsnProp({ type: AsnPropTypes.Utf8String })(RoleOfPsp.prototype, 'roleOfPspName');

export class RolesOfPsp extends AsnArray<RoleOfPsp> {
  constructor(items?: RoleOfPsp[]) {
    super(items);
    Object.setPrototypeOf(this, RolesOfPsp.prototype);
  }
}
AsnType({ type: AsnTypeTypes.Sequence, itemType: RoleOfPsp })(RolesOfPsp);

export class Psd2QcType {
  rolesOfPSP = new RolesOfPsp();
  nCAName = '';
  nCAId = '';
  constructor(params: Partial<Psd2QcType> = {}) {
    Object.assign(this, params);
  }
}
AsnType({ type: AsnTypeTypes.Sequence })(Psd2QcType);
AsnProp({ type: RolesOfPsp })(Psd2QcType.prototype, 'rolesOfPSP');
AsnProp({ type: AsnPropTypes.Utf8String })(Psd2QcType.prototype, 'nCAName');
AsnProp({ type: AsnPropTypes.Utf8String })(Psd2QcType.prototype, 'nCAId');

export class QcTypes extends AsnArray<string> {
  constructor(items?: string[]) {
    super(items);
    Object.setPrototypeOf(this, QcTypes.prototype);
  }
}
AsnType({ type: AsnTypeTypes.Sequence, itemType: AsnPropTypes.ObjectIdentifier })(QcTypes);

export class QcStatement {
  statementId = '';
  /** The DER of statementInfo, when present. */
  statementInfo?: ArrayBuffer;
  constructor(params: Partial<QcStatement> = {}) {
    Object.assign(this, params);
  }
}
AsnType({ type: AsnTypeTypes.Sequence })(QcStatement);
AsnProp({ type: AsnPropTypes.ObjectIdentifier })(QcStatement.prototype, 'statementId');
AsnProp({ type: AsnPropTypes.Any, optional: true })(QcStatement.prototype, 'statementInfo');

export class QcStatements extends AsnArray<QcStatement> {
  constructor(items?: QcStatement[]) {
    super(items);
    Object.setPrototypeOf(this, QcStatements.prototype);
  }
}
AsnType({ type: AsnTypeTypes.Sequence, itemType: QcStatement })(QcStatements);

export interface Psd2Statement {
  /** Role names, in the certificate's order; a role whose OID is known is named by its OID. */
  roles: string[];
  ncaName: string;
  ncaId: string;
}

export interface ParsedQcStatements {
  /** Every statement's OID, in order. */
  statements: string[];
  psd2: Psd2Statement | null;
  /** The qcType statement's types (web, eseal, esign). */
  qcTypes: string[];
}

const ROLE_BY_OID = new Map(Object.entries(PSD2_ROLE_OIDS).map(([name, oid]) => [oid, name]));

const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** Parses a qcStatements extension value (its DER); throws on malformed DER. */
export function parseQcStatements(value: Uint8Array): ParsedQcStatements {
  const list = AsnParser.parse(toArrayBuffer(value), QcStatements);
  let psd2: Psd2Statement | null = null;
  let qcTypes: string[] = [];
  for (const statement of list) {
    if (statement.statementId === PSD2_QC_STATEMENT_OID && statement.statementInfo) {
      const info = AsnParser.parse(statement.statementInfo, Psd2QcType);
      psd2 = {
        roles: [...info.rolesOfPSP].map((r) => ROLE_BY_OID.get(r.roleOfPspOid) ?? r.roleOfPspName),
        ncaName: info.nCAName,
        ncaId: info.nCAId,
      };
    }
    if (statement.statementId === QC_TYPE_OID && statement.statementInfo)
      qcTypes = [...AsnParser.parse(statement.statementInfo, QcTypes)];
  }
  return { statements: [...list].map((s) => s.statementId), psd2, qcTypes };
}

export interface QcStatementsInput {
  kind: 'qwac' | 'qseal';
  roles: readonly Psd2Role[];
  ncaName: string;
  ncaId: string;
}

/** The DER of a qcStatements extension value: QcCompliance, qcType (web or eseal), PSD2. */
export function encodeQcStatements(input: QcStatementsInput): ArrayBuffer {
  const psd2 = new Psd2QcType({
    rolesOfPSP: new RolesOfPsp(
      input.roles.map((role) => new RoleOfPsp({ roleOfPspOid: PSD2_ROLE_OIDS[role], roleOfPspName: role })),
    ),
    nCAName: input.ncaName,
    nCAId: input.ncaId,
  });
  const types = new QcTypes([input.kind === 'qwac' ? QC_TYPE_WEB : QC_TYPE_ESEAL]);
  return AsnSerializer.serialize(
    new QcStatements([
      new QcStatement({ statementId: QC_COMPLIANCE_OID }),
      new QcStatement({ statementId: QC_TYPE_OID, statementInfo: AsnSerializer.serialize(types) }),
      new QcStatement({ statementId: PSD2_QC_STATEMENT_OID, statementInfo: AsnSerializer.serialize(psd2) }),
    ]),
  );
}
