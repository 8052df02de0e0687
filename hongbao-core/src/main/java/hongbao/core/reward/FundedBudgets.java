package hongbao.core.reward;

import hongbao.core.money.Amount;
import java.util.Optional;

/**
 * Port: the budget the books say a campaign was funded with, to open its budget keys again when
 * Redis lost them (a restart without its data, a failover to a replica that never had them). The
 * books are PostgreSQL: the ledger's escrow and, for a red-packet rain, its stored version.
 */
@FunctionalInterface
public interface FundedBudgets {

  /**
   * No books: a lost budget stays lost, and an edit's lapsed freeze waits for a sender with books
   * or the campaign closer to settle it (a sender without access to them, as in a bare SDK).
   */
  FundedBudgets NONE =
      new FundedBudgets() {
        @Override
        public Optional<Funded> find(String campaignId) {
          return Optional.empty();
        }

        @Override
        public boolean booked() {
          return false;
        }
      };

  /** Whether these are the books: false for {@link #NONE}, which knows no campaign. */
  default boolean booked() {
    return true;
  }

  /**
   * The budget of a campaign that is funded and still takes rewards; empty for a campaign the books
   * do not know or one whose unspent budget went back already.
   */
  Optional<Funded> find(String campaignId);

  /** A campaign's budget and the version its keys are opened under (1 unless a rain was edited). */
  record Funded(Amount budget, int version) {}
}
