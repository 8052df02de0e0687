import java.nio.charset.StandardCharsets;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Prints bearer tokens for users {@code PREFIX1 .. PREFIXn}, one per line, signed with the
 * service's HS256 secret: the outside load generator needs a new user per grab and cannot sign
 * tokens itself.
 * Run as a single-file program: {@code java MintTokens.java SECRET PREFIX COUNT [admin]}.
 */
public final class MintTokens {

  private MintTokens() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 3 || args.length > 4 || (args.length == 4 && !args[3].equals("admin"))) {
      System.err.println("usage: java MintTokens.java SECRET PREFIX COUNT [admin]");
      System.exit(2);
    }
    var mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(args[0].getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    var base64 = Base64.getUrlEncoder().withoutPadding();
    String header = base64.encodeToString("{\"alg\":\"HS256\"}".getBytes(StandardCharsets.UTF_8));
    long now = System.currentTimeMillis() / 1000;
    int count = Integer.parseInt(args[2]);
    boolean admin = args.length == 4;
    var out = new StringBuilder();
    for (int i = 1; i <= count; i++) {
      String claims =
          "{\"sub\":\"" + args[1] + i + "\",\"admin\":" + admin + ",\"iat\":" + now + ",\"exp\":"
              + (now + 86_400) + "}";
      String unsigned =
          header + "." + base64.encodeToString(claims.getBytes(StandardCharsets.UTF_8));
      byte[] signature = mac.doFinal(unsigned.getBytes(StandardCharsets.US_ASCII));
      out.append(unsigned).append('.').append(base64.encodeToString(signature)).append('\n');
      if (out.length() > 1 << 20) {
        System.out.print(out);
        out.setLength(0);
      }
    }
    System.out.print(out);
  }
}
