package hongbao.core;

/** A request refused by a domain rule; nothing was changed. */
public final class RejectedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final Rejection rejection;

  public RejectedException(Rejection rejection, String message) {
    super(message, null, false, false);
    this.rejection = rejection;
  }

  public Rejection rejection() {
    return rejection;
  }
}
