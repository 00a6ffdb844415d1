// Tells whether a chat message says that one given player died: the message must be a whole death
// template with that player as the one who died (`%1$s`); a killer or item (`%2$s`, `%3$s`) is any text.
import { DEATH_TEMPLATES, type DeathTemplate } from './death-messages.js';

interface CompiledTemplate {
  readonly key: string;
  readonly expression: RegExp;
}

export class DeathMessageMatcher {
  readonly #templates: readonly CompiledTemplate[];

  constructor(
    readonly player: string,
    templates: readonly DeathTemplate[] = DEATH_TEMPLATES,
  ) {
    this.#templates = templates
      .filter(({ template }) => template.includes('%1$s'))
      .map(({ key, template }) => ({ key, expression: compile(template, player) }));
  }

  /** The key of the template `message` is, with the player dying; `undefined` when it is no death of theirs. */
  match(message: string): string | undefined {
    return this.#templates.find(({ expression }) => expression.test(message))?.key;
  }
}

function compile(template: string, player: string): RegExp {
  const pattern = template
    .split(/(%[1-3]\$s)/)
    .map((part) => {
      if (part === '%1$s') return escape(player);
      if (part === '%2$s' || part === '%3$s') return '.+';
      return escape(part);
    })
    .join('');
  return new RegExp(`^${pattern}$`, 's');
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
