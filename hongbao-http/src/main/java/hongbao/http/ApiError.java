package hongbao.http;

/**
 * An error answer of the API: status, UPPER_SNAKE code and a message for people. Thrown anywhere in
 * a handler and rendered in one place; it carries no stack trace because it is an answer, not a
 * fault.
 */
public final class ApiError extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String code;

  public ApiError(int status, String code, String message) {
    super(message, null, false, false);
    this.status = status;
    this.code = code;
  }

  public static ApiError invalid(String message) {
    return new ApiError(400, "INVALID_REQUEST", message);
  }

  public static ApiError notFound(String message) {
    return new ApiError(404, "NOT_FOUND", message);
  }

  public int status() {
    return status;
  }

  public String code() {
    return code;
  }
}
