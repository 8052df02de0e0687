package hongbao.core.grab;

import hongbao.core.money.Amount;

/**
 * What a grab attempt came to. Outcomes are values, not errors: every grab of an existing packet
 * answers with one of them. {@link NotFound} is the only one the API turns into an error.
 */
public sealed interface GrabOutcome {

  /** The user took a share now. */
  record Grabbed(Amount amount) implements GrabOutcome {}

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

  /** No such packet in the fast store. */
  record NotFound() implements GrabOutcome {}

  GrabOutcome SOLD_OUT = new SoldOut();
  GrabOutcome EXPIRED = new Expired();
  GrabOutcome NOT_ELIGIBLE = new NotEligible();
  GrabOutcome WRONG_PASSWORD = new WrongPassword();
  GrabOutcome NOT_FOUND = new NotFound();
}
