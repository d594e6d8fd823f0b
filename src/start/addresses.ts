// Which address directory answers: the juso API when a key is configured, the imported local
// directory when it holds rows, else the bundled sandbox (synthetic, see src/addresses/SANDBOX.md).
import type { Config } from '../config.ts';
import { JusoDirectory } from '../addresses/juso-client.ts';
import { LocalDirectory } from '../addresses/local-directory.ts';
import { SandboxDirectory } from '../addresses/sandbox-directory.ts';
import type { AddressDirectory } from '../domain/address/types.ts';
import type { Store } from '../store/store.ts';

export async function chooseDirectory(cfg: Config['addresses'], store: Store): Promise<AddressDirectory> {
  const want = cfg.directory === 'auto' ? (cfg.jusoKey ? 'juso' : (await store.addresses.count()) > 0 ? 'local' : 'sandbox') : cfg.directory;
  switch (want) {
    case 'juso':
      if (!cfg.jusoKey) throw new Error('ADDRESS_DIRECTORY=juso needs JUSO_CONFM_KEY');
      return new JusoDirectory({ confmKey: cfg.jusoKey, baseUrl: cfg.jusoBaseUrl });
    case 'local':
      return new LocalDirectory(store.addresses);
    case 'sandbox':
      // built on first use (~0.3 s, ~70 MB): a process that never checks an address never pays for it
      return new SandboxDirectory();
  }
}
