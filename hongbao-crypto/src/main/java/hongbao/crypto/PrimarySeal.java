package hongbao.crypto;

import com.google.crypto.tink.InsecureSecretKeyAccess;
import com.google.crypto.tink.Key;
import com.google.crypto.tink.aead.AesGcmKey;
import com.google.crypto.tink.aead.AesGcmParameters;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * Seals with a keyset's primary AES-GCM key through the JDK's cipher, writing exactly what Tink
 * writes for that key (its output prefix, a random IV, the ciphertext and tag), so Tink opens it
 * like its own.
 *
 * <p><b>Why not Tink's {@code encrypt}.</b> Tink keeps its {@code SecureRandom} and its {@code
 * Cipher} in thread-locals. The service seals on virtual threads, one per request, so every seal
 * built both afresh (the random source probing for providers by exception): about 100 µs of CPU per
 * reward token or rain win. Here one random source serves every thread, and ciphers are reused from
 * a pool.
 *
 * <p>Only the key kind and variants whose format is that simple take this path ({@link #of});
 * anything else keeps sealing through Tink. Thread-safe.
 */
final class PrimarySeal {

  private static final String TRANSFORMATION = "AES/GCM/NoPadding";

  /** Thread-safe: the JDK's default source serialises its callers. */
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Bounded by the threads sealing at once; a cipher is taken, initialised, used and returned. */
  private final ConcurrentLinkedQueue<Cipher> ciphers = new ConcurrentLinkedQueue<>();

  private final SecretKeySpec key;
  private final byte[] prefix;
  private final int ivBytes;
  private final int tagBits;

  private PrimarySeal(SecretKeySpec key, byte[] prefix, int ivBytes, int tagBits) {
    this.key = key;
    this.prefix = prefix;
    this.ivBytes = ivBytes;
    this.tagBits = tagBits;
  }

  /** For an AES-GCM primary key with Tink's prefix or none; empty for any other key. */
  static Optional<PrimarySeal> of(Key primary) {
    if (!(primary instanceof AesGcmKey gcm)) {
      return Optional.empty();
    }
    AesGcmParameters parameters = gcm.getParameters();
    AesGcmParameters.Variant variant = parameters.getVariant();
    if (variant != AesGcmParameters.Variant.TINK && variant != AesGcmParameters.Variant.NO_PREFIX) {
      return Optional.empty();
    }
    return Optional.of(
        new PrimarySeal(
            new SecretKeySpec(gcm.getKeyBytes().toByteArray(InsecureSecretKeyAccess.get()), "AES"),
            gcm.getOutputPrefix().toByteArray(),
            parameters.getIvSizeBytes(),
            parameters.getTagSizeBytes() * 8));
  }

  byte[] seal(byte[] body, byte[] associatedData) throws GeneralSecurityException {
    byte[] iv = new byte[ivBytes];
    RANDOM.nextBytes(iv);
    Cipher cipher = ciphers.poll();
    if (cipher == null) {
      cipher = Cipher.getInstance(TRANSFORMATION);
    }
    cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(tagBits, iv));
    cipher.updateAAD(associatedData);
    byte[] sealed = new byte[prefix.length + ivBytes + cipher.getOutputSize(body.length)];
    System.arraycopy(prefix, 0, sealed, 0, prefix.length);
    System.arraycopy(iv, 0, sealed, prefix.length, ivBytes);
    int written = cipher.doFinal(body, 0, body.length, sealed, prefix.length + ivBytes);
    ciphers.offer(cipher);
    if (prefix.length + ivBytes + written != sealed.length) {
      throw new IllegalStateException("AES-GCM wrote " + written + " bytes, not as announced");
    }
    return sealed;
  }
}
