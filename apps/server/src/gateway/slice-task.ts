import type { Obj } from '../openapi/operations.ts';
import { dereference } from '../openapi/slice.ts';
import type { OpenApiDocument } from '../openapi/document.ts';
import { operationValidatorCode, type ValidatorCode } from './validator-code.ts';

/**
 * One operation of the sandbox made ready in a worker thread of the document pool (decisions 032
 * and 038): its slice as cut on the main thread (cutOperationSlice) dereferenced here, where
 * swagger-parser's crawl of a big slice (up to 166 ms of one turn of the main thread for a
 * Kubernetes operation in bench:large step 3) holds no request, and its validators' code generated
 * from a copy of it (as they were from the copy the main thread sent). `codeError` when only the
 * code could not be generated.
 */
export async function operationSliceAndCode(
  cut: Obj,
): Promise<{ slice: OpenApiDocument; code?: ValidatorCode; codeError?: string }> {
  const slice = (await dereference(cut)) as OpenApiDocument;
  try {
    return { slice, code: operationValidatorCode(structuredClone(slice)) };
  } catch (err) {
    return { slice, codeError: String((err as Error)?.stack ?? err) };
  }
}

/**
 * The warm-up of decision 039, run through this module so that the thread loads what a first call
 * loads: the dereferencer with the validator and mock generators.
 */
export { warmUp } from './validator-code.ts';
