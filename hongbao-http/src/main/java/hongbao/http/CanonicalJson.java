package hongbao.http;

import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A digest of a JSON value, not of its bytes: key order and whitespace do not matter, so a client
 * retrying with the same value in another spelling is recognised as the same request.
 */
final class CanonicalJson {

  private CanonicalJson() {}

  static String digest(JsonObject value) {
    try {
      MessageDigest sha = MessageDigest.getInstance("SHA-256");
      byte[] canonical = canonical(value.getMap()).getBytes(StandardCharsets.UTF_8);
      return HexFormat.of().formatHex(sha.digest(canonical));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is always available", e);
    }
  }

  private static String canonical(Object value) {
    return switch (value) {
      case JsonObject object -> canonical(object.getMap());
      case JsonArray array -> canonical(array.getList());
      case Map<?, ?> map -> {
        var out = new StringBuilder("{");
        new TreeMap<>(map)
            .forEach(
                (key, field) -> {
                  out.append(out.length() > 1 ? "," : "");
                  out.append(Json.encode(key)).append(':').append(canonical(field));
                });
        yield out.append('}').toString();
      }
      case List<?> list -> {
        var out = new StringBuilder("[");
        for (Object element : list) {
          out.append(out.length() > 1 ? "," : "").append(canonical(element));
        }
        yield out.append(']').toString();
      }
      case null -> "null";
      default -> Json.encode(value);
    };
  }
}
