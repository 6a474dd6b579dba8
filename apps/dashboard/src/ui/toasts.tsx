/** Short-lived messages in a corner (live notifications), announced by screen readers. */
import { createContext, useCallback, useContext, useState, type ReactNode } from "react"
import { useI18n } from "../i18n/i18n"

interface Toast {
  readonly id: number
  readonly title: string
  readonly text: string
}

const ToastContext = createContext<(title: string, text: string) => void>(() => undefined)

let nextId = 0

export const ToastProvider = ({ children }: { readonly children: ReactNode }) => {
  const { t } = useI18n()
  const [toasts, setToasts] = useState<ReadonlyArray<Toast>>([])
  const dismiss = (id: number) => setToasts((all) => all.filter((toast) => toast.id !== id))
  const show = useCallback((title: string, text: string) => {
    const id = ++nextId
    setToasts((all) => [...all, { id, title, text }])
    setTimeout(() => dismiss(id), 15_000)
  }, [])
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="toasts" role="status" aria-live="polite">
        {toasts.map((toast) => (
          <div className="toast" key={toast.id}>
            <strong>{toast.title}</strong>
            <p>{toast.text}</p>
            <button type="button" onClick={() => dismiss(toast.id)}>{t("dismiss")}</button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  )
}

export const useToast = () => useContext(ToastContext)
