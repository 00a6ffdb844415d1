// Sign-in commands: `Login` stores the tokens, `Logout` forgets them (stopping uploads first); Discord sign-in is
// answered at once (not available).
import { injectable } from 'tsyringe';
import { AccountService } from '../accounts/account-service.js';
import { DiscordSignIn } from '../accounts/discord-sign-in.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class AccountCommands implements CommandGroup {
  constructor(
    private readonly account: AccountService,
    private readonly discord: DiscordSignIn,
  ) {}

  readonly handlers: CommandHandlers = {
    Login: ({ accessToken, refreshToken }) => this.account.login({ accessToken, refreshToken }),
    Logout: () => this.account.logout(),
    LoginWithDiscord: () => this.discord.start(),
    CancelDiscordLogin: () => this.discord.cancel(),
  };
}
