import { move } from 'piscina';
import { yamlBytes } from './yaml-writer.ts';

/**
 * The YAML download of a stored document, written in a worker thread of the document pool
 * (issue 29): from the stored JSON's rows to the YAML's UTF-8 bytes, which are moved (not copied)
 * back. On the main thread, GitHub's description took 8 ms turns for over a second and its parsed
 * object and the YAML's strings were garbage its collector paused for.
 */
export function documentYaml(task: { rows: string[] }): ReturnType<typeof move> {
  return move(yamlBytes(JSON.parse(task.rows.join('')) as unknown));
}
