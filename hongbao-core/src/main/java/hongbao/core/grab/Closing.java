package hongbao.core.grab;

import hongbao.core.money.Amount;

/** What closing an expired packet in the grab store came to. */
public sealed interface Closing {

  /** Not expired yet: nothing changed. */
  record NotYet() implements Closing {}

  /**
   * Not now: the store has no state of the packet but payout tasks of it still wait. Try again
   * later; nothing changed.
   */
  record Busy() implements Closing {}

  /**
   * Held: the store's state under the packet's id is another packet's (see {@code Arming}), so it
   * says nothing of this one; the ledger alone does. Nothing changed.
   */
  record Held() implements Closing {}

  /** Closed: no grab can take a share any more; {@code remainder} is what nobody took. */
  record Closed(Amount remainder) implements Closing {}

  Closing NOT_YET = new NotYet();
  Closing BUSY = new Busy();
  Closing HELD = new Held();
}
