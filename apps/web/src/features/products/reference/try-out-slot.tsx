import { Button } from '@mantine/core';
import type { OperationDetail } from '@portico/contracts/catalog';
import { IconPlayerPlay } from '@tabler/icons-react';
import { Suspense, useState } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { lazyPage, showWhenLoaded } from '../../../lib/lazy-page';
import { sharedRequest } from '../../tryout/share';
import { useOperationIndex } from '../api-documentation';
import { operationKeyOf } from './api-reference';

export interface TryOutSlotProps {
  /** The documentation's alias: the sandbox answers under /sandbox/<alias>. */
  documentationAlias: string;
  /** Everything the console needs to build a request: server, parameters, body, security. */
  operation: OperationDetail;
}

/** The console (CodeMirror, Ajv, code samples) is its own chunk, loaded on the first open. */
const TryoutConsole = lazyPage(() => import('../../tryout/console'));

/**
 * Where the try-out console (spec B 2.16, issue 12) attaches to each expanded operation: a 'Try it
 * out' button opening the console beside the reference. A shared link (`?tryout=…#operation/key`)
 * opens it at once with the shared values.
 */
export function TryOutSlot({ documentationAlias, operation }: TryOutSlotProps) {
  const { t } = useTranslation();
  const [shared] = useState(() => sharedRequest(window.location.search, operation.method, operation.path));
  const [opened, setOpened] = useState(shared !== null);
  // Already loaded by the reference around this slot.
  const index = useOperationIndex(documentationAlias);
  return (
    <>
      <div>
        <Button
          leftSection={<IconPlayerPlay size={16} aria-hidden="true" />}
          onClick={() => showWhenLoaded(TryoutConsole, () => setOpened(true))}
          onMouseEnter={() => void TryoutConsole.preload()}
          onFocus={() => void TryoutConsole.preload()}
          data-testid="try-out"
          // A stable target for tours: '[data-operation="<key>"] [data-tour="try-out"]'.
          data-tour="try-out"
        >
          {t('tryout.tryItOut')}
        </Button>
      </div>
      {opened && (
        // Its own boundary: while the chunk loads, only the console waits, not the page.
        <Suspense fallback={null}>
          <TryoutConsole
            documentationAlias={documentationAlias}
            operation={operation}
            opened={opened}
            onClose={() => setOpened(false)}
            startForm={shared}
            securitySchemes={index.data?.securitySchemes ?? []}
            operationKeyOf={(method, path) => (index.data ? operationKeyOf(index.data, method, path) : null)}
          />
        </Suspense>
      )}
    </>
  );
}
