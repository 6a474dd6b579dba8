/**
 * What a message holds besides its text: a shared location (with a map link) or shared contact
 * cards. Other types say everything in their text (a button's title, a reaction's emoji). The
 * text already holds a place's name (else its address), so it is not said twice.
 */
import { useI18n } from "../i18n/i18n"

interface Location { readonly latitude: number; readonly longitude: number; readonly name?: string; readonly address?: string }
interface Card { readonly name?: { readonly formatted_name?: string }; readonly phones?: ReadonlyArray<{ readonly phone?: string }> }

export const MessageContent = ({ type, body, content }: {
  readonly type: string
  readonly body: string
  readonly content: Readonly<Record<string, unknown>> | null
}) => {
  const { t } = useI18n()
  if (content === null) return null
  if (type === "location" && typeof content["latitude"] === "number") {
    const place = content as unknown as Location
    const map = `https://www.openstreetmap.org/?mlat=${place.latitude}&mlon=${place.longitude}#map=16/${place.latitude}/${place.longitude}`
    return (
      <p className="content">
        {[place.name, place.address].filter((part) => part && part !== body).join(", ")}{" "}
        <a href={map} target="_blank" rel="noopener noreferrer">{t("openMap")}</a>
      </p>
    )
  }
  if (type === "contacts" && Array.isArray(content["contacts"])) {
    return (
      <ul className="content">
        {(content["contacts"] as ReadonlyArray<Card>).map((card, index) => (
          <li key={index}>{card.name?.formatted_name} <span dir="ltr">{card.phones?.map((p) => p.phone).filter(Boolean).join(", ")}</span></li>
        ))}
      </ul>
    )
  }
  return null
}
