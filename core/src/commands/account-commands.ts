// Sign-in commands: `Login` stores the tokens, `Logout` forgets them (stopping uploads first).
import { injectable } from 'tsyringe';
import { AccountService } from '../accounts/account-service.js';
import type { CommandGroup, CommandHandlers } from './command-handlers.js';

@injectable()
export class AccountCommands implements CommandGroup {
  constructor(private readonly account: AccountService) {}

  readonly handlers: CommandHandlers = {
    Login: ({ accessToken, refreshToken }) => this.account.login({ accessToken, refreshToken }),
    Logout: () => this.account.logout(),
  };
}
