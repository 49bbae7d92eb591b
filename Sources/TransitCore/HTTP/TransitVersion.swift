import TransitSupport
/// The version, in one place: `transit --version`, the User-Agent and recordings read it.
public enum TransitVersion {
    public static let current = "0.1.0"
}
