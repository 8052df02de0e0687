package hongbao.core.grab;

import hongbao.core.money.Amount;
import java.time.Instant;

/**
 * What a grab attempt came to. Outcomes are values, not errors: every grab of an existing packet
 * answers with one of them. {@link NotFound} is the only one the API turns into an error.
 */
public sealed interface GrabOutcome {

  /**
   * The user took a share now, as the packet's {@code seq}-th grab.
   *
   * @param packetCreatedAt the packet's creation as the grab store armed it, to the millisecond;
   *     null for a packet armed before the store kept it
   * @param receipt the sealed {@link GrabReceipt} the user keeps ("" until the grab service seals
   *     it)
   */
  record Grabbed(Amount amount, int seq, Instant packetCreatedAt, String receipt)
      implements GrabOutcome {

    public Grabbed withReceipt(String sealed) {
      return new Grabbed(amount, seq, packetCreatedAt, sealed);
    }
  }

  /** The user took a share earlier; it names the same amount forever. */
  record AlreadyGrabbed(Amount amount) implements GrabOutcome {}

  /** Every share is taken. */
  record SoldOut() implements GrabOutcome {}

  /** The packet expired with shares left. */
  record Expired() implements GrabOutcome {}

  /** The user is not a recipient of an EXCLUSIVE packet. */
  record NotEligible() implements GrabOutcome {}

  /** The 口令 phrase did not match. */
  record WrongPassword() implements GrabOutcome {}

  /**
   * The packet belongs to an activity and the user has grabbed as many shares of its packets as the
   * activity allows.
   */
  record LimitReached() implements GrabOutcome {}

  /** No such packet in the fast store. */
  record NotFound() implements GrabOutcome {}

  /**
   * The fast store's state under this id belongs to another packet (the id was handed out again
   * after the ledger was restored from a backup): nothing is sold from it until an operator acts.
   */
  record Held() implements GrabOutcome {}

  GrabOutcome SOLD_OUT = new SoldOut();
  GrabOutcome EXPIRED = new Expired();
  GrabOutcome NOT_ELIGIBLE = new NotEligible();
  GrabOutcome WRONG_PASSWORD = new WrongPassword();
  GrabOutcome LIMIT_REACHED = new LimitReached();
  GrabOutcome NOT_FOUND = new NotFound();
  GrabOutcome HELD = new Held();
}
