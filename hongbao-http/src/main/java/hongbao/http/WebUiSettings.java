package hongbao.http;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Where the web UI lives and where its users sign in when dev mode is off.
 *
 * @param publicUrl the address people open the UI at ({@code HONGBAO_PUBLIC_URL}), without a
 *     trailing slash; share links and QR codes use it. Null: the address the request came to, which
 *     is wrong behind a proxy or on a laptop bound to loopback.
 * @param loginUrl the operator's sign-in page ({@code HONGBAO_LOGIN_URL}); the UI sends people
 *     there with {@code ?redirect_uri=<the UI>} and expects them back at {@code
 *     <redirect_uri>#token=<JWT>}. Null: people paste a token (or pick a name in dev mode).
 */
public record WebUiSettings(String publicUrl, String loginUrl) {

  public static final WebUiSettings NONE = new WebUiSettings(null, null);

  public WebUiSettings {
    publicUrl = publicUrl == null ? null : httpUrl("HONGBAO_PUBLIC_URL", publicUrl);
    loginUrl = loginUrl == null ? null : httpUrl("HONGBAO_LOGIN_URL", loginUrl);
  }

  /** The link that opens packet {@code id}'s envelope, under {@code origin} unless configured. */
  public String shareLink(String origin, String id) {
    return (publicUrl != null ? publicUrl : origin) + "/#/grab/" + id;
  }

  private static String httpUrl(String name, String text) {
    String trimmed = text.trim().replaceAll("/+$", "");
    try {
      URI uri = new URI(trimmed);
      if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          && uri.getHost() != null
          && uri.getFragment() == null) {
        return trimmed;
      }
    } catch (URISyntaxException e) {
      // answered below, as for any other unusable address
    }
    throw new IllegalArgumentException(
        name + " must be an http:// or https:// address without a #fragment, not '" + text + "'");
  }
}
