package hongbao.client;

/** An error answer of the API: its status and the stable {@code code} of its body. */
public final class HongbaoException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final int status;
  private final String code;

  public HongbaoException(int status, String code, String message) {
    super(status + " " + code + ": " + message);
    this.status = status;
    this.code = code;
  }

  public int status() {
    return status;
  }

  /** INVALID_REQUEST, INSUFFICIENT_FUNDS, DISABLED, ... (see docs/api.md). */
  public String code() {
    return code;
  }
}
