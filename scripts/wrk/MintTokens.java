import hongbao.http.auth.Tokens;
import java.time.Clock;
import java.time.Duration;

/**
 * Prints bearer tokens for users {@code PREFIX1 .. PREFIXn}, one per line, signed by the service's
 * own {@link Tokens} with its HS256 secret: the outside load generator needs a new user per grab
 * and cannot sign tokens itself. Run as a single-file program on the service's jar: {@code java -cp
 * hongbao-app/target/hongbao.jar MintTokens.java SECRET PREFIX COUNT [admin]}.
 */
public final class MintTokens {

  private MintTokens() {}

  public static void main(String[] args) {
    if (args.length < 3 || args.length > 4 || (args.length == 4 && !args[3].equals("admin"))) {
      System.err.println("usage: java -cp hongbao.jar MintTokens.java SECRET PREFIX COUNT [admin]");
      System.exit(2);
    }
    var tokens = new Tokens(args[0], Clock.systemUTC());
    boolean admin = args.length == 4;
    int count = Integer.parseInt(args[2]);
    var out = new StringBuilder();
    for (int i = 1; i <= count; i++) {
      out.append(tokens.mint(args[1] + i, admin, Duration.ofDays(1))).append('\n');
      if (out.length() > 1 << 20) {
        System.out.print(out);
        out.setLength(0);
      }
    }
    System.out.print(out);
  }
}
