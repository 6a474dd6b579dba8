/** A kind's property definitions (built-in and custom) and groups. */
import { api, type Kind, type Schemas } from "../api/client"
import { useLoad } from "../ui/useLoad"

export const useProperties = (kind: Kind) =>
  useLoad(async (): Promise<ReadonlyArray<Schemas["PropertyView"]>> => {
    const { data } = await api.GET("/api/{kind}/properties", { params: { path: { kind } } })
    return data?.data ?? []
  }, [kind])

export const useGroups = (kind: Kind) =>
  useLoad(async (): Promise<ReadonlyArray<Schemas["PropertyGroupView"]>> => {
    const { data } = await api.GET("/api/{kind}/properties/groups", { params: { path: { kind } } })
    return data?.data ?? []
  }, [kind])
