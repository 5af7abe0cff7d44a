// The default theme, with tables that fit a phone's width (narrow.css).
import DefaultTheme from "vitepress/theme";
import "./narrow.css";

export default DefaultTheme;
