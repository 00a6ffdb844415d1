// A module resolve hook (node:module `register`): plugins installed outside the service's own tree
// get the service's copies of the shared packages, whatever their own node_modules hold.
interface HookData {
  /** file: URL of a module inside the service, to resolve shared packages from. */
  hostUrl: string;
  /** file: URLs of folders whose modules are plugins. */
  pluginRoots: string[];
  sharedPackages: string[];
}

interface ResolveContext {
  parentURL?: string;
  conditions: string[];
  importAttributes: Record<string, string>;
}
type NextResolve = (specifier: string, context: ResolveContext) => Promise<{ url: string; shortCircuit?: boolean }>;

let data: HookData = { hostUrl: '', pluginRoots: [], sharedPackages: [] };

export function initialize(hookData: HookData): void {
  data = hookData;
}

export function resolve(specifier: string, context: ResolveContext, nextResolve: NextResolve) {
  const shared = data.sharedPackages.some((name) => specifier === name || specifier.startsWith(`${name}/`));
  const fromPlugin = context.parentURL !== undefined && data.pluginRoots.some((root) => context.parentURL!.startsWith(root));
  return nextResolve(specifier, shared && fromPlugin ? { ...context, parentURL: data.hostUrl } : context);
}
