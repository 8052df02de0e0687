package hongbao.core.grab;

import hongbao.core.money.Amount;

/** What putting one lost grab back into the grab store came to (see {@link GrabStore#recover}). */
public sealed interface Recovered {

  /** Recorded now as the packet's {@code seq}-th grab. */
  record Done(Amount amount, int seq) implements Recovered {}

  /** The store has a grab of this user already, of this amount. */
  record AlreadyThere(Amount amount) implements Recovered {}

  /** What is left of the packet cannot cover the grab; nothing changed. */
  record Exhausted() implements Recovered {}

  /**
   * A claimed grab of a packet of an activity whose user has grabbed as many of its shares as it
   * allows without this one; nothing changed.
   */
  record OverLimit() implements Recovered {}

  /**
   * The packet is closed with its grabs recorded in the store: its remainder was refunded, and what
   * its escrow still holds is owed to those grabs; nothing changed.
   */
  record Refunded() implements Recovered {}

  /**
   * The packet is held in the store, or closed without a record of its grabs (the ledger decides);
   * nothing changed.
   */
  record Closed() implements Recovered {}

  /** The store has no state of the packet. */
  record Missing() implements Recovered {}

  Recovered EXHAUSTED = new Exhausted();
  Recovered OVER_LIMIT = new OverLimit();
  Recovered REFUNDED = new Refunded();
  Recovered CLOSED = new Closed();
  Recovered MISSING = new Missing();
}
